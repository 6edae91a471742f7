import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { pushSettingsSchema, pushStatusSchema, type PushSettings, type PushStatus } from "@sage/contracts/push";
import { apiRequest, getJson } from "@/lib/api-client";

export const pushQueryKey = ["push"] as const;

export const usePushStatus = () =>
  useQuery({ queryKey: pushQueryKey, queryFn: async (): Promise<PushStatus | null> => getJson("/api/push", pushStatusSchema) });

export function usePushActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: pushQueryKey });
  return {
    saveSettings: useMutation({
      mutationFn: (settings: PushSettings) => apiRequest("/api/push/settings", { method: "PUT", body: settings, schema: pushSettingsSchema }),
      onSuccess: refresh,
    }),
    subscribe: useMutation({
      mutationFn: (subscription: PushSubscriptionJSON) => apiRequest("/api/push/subscriptions", { method: "POST", body: subscription }),
      onSuccess: refresh,
    }),
    unsubscribe: useMutation({
      mutationFn: (endpoint: string) => apiRequest("/api/push/subscriptions", { method: "DELETE", body: { endpoint } }),
      onSuccess: refresh,
    }),
  };
}
