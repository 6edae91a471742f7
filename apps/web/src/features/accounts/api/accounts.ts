import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { accountListSchema, accountSchema, testConnectionResponseSchema, type CreateAccountRequest } from "@sage/contracts/accounts";
import { apiRequest, getJson } from "@/lib/api-client";

export const accountsQueryKey = ["accounts"] as const;

/** GET /api/accounts; polled while an account syncs, so its progress moves. */
export const useAccounts = () =>
  useQuery({
    queryKey: accountsQueryKey,
    queryFn: () => getJson("/api/accounts", accountListSchema),
    refetchInterval: (query) => (query.state.data?.some((account) => account.status === "syncing") ? 2_000 : false),
  });

function useRefreshingMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsQueryKey }) });
}

export const useCreateAccount = () =>
  useRefreshingMutation((account: CreateAccountRequest) => apiRequest("/api/accounts", { method: "POST", body: account, schema: accountSchema }));

export const useTestConnection = () =>
  useMutation({
    mutationFn: (account: CreateAccountRequest) => apiRequest("/api/accounts/test", { method: "POST", body: account, schema: testConnectionResponseSchema }),
  });

export const useSyncAccount = () => useRefreshingMutation((id: number) => apiRequest(`/api/accounts/${id}/sync`, { method: "POST", schema: accountSchema }));

export const useDeleteAccount = () => useRefreshingMutation((id: number) => apiRequest(`/api/accounts/${id}`, { method: "DELETE" }));
