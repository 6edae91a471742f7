import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  accountListSchema,
  accountSchema,
  testConnectionResponseSchema,
  type CreateAnyAccountRequest,
  type SignInAccountRequest,
} from "@sage/contracts/accounts";
import { oauthProviderListSchema } from "@sage/contracts/oauth";
import { calendarEventsResponseSchema, calendarFeedSchema, timeZoneSettingSchema } from "@sage/contracts/calendar";
import { apiRequest, getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const accountsQueryKey = ["accounts"] as const;

/** GET /api/accounts; polled while an account syncs, so its progress moves. */
export const useAccounts = () =>
  useQuery({
    queryKey: accountsQueryKey,
    queryFn: () => getJson("/api/accounts", accountListSchema),
    // While a sync runs, and until what it brought can be found ("Reading 12 messages").
    refetchInterval: (query) =>
      query.state.data?.some((account) => account.status === "syncing" || (account.counts.reading ?? 0) > 0) ? pollEvery(2_000) : false,
  });

function useRefreshingMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsQueryKey }) });
}

export const useCreateAccount = () =>
  useRefreshingMutation((account: CreateAnyAccountRequest) => apiRequest("/api/accounts", { method: "POST", body: account, schema: accountSchema }));

/** GET /api/oauth/providers: the sign-in buttons, and what the operator must set for those not set up. */
export const useOAuthProviders = () =>
  useQuery({ queryKey: ["oauth-providers"], queryFn: () => getJson("/api/oauth/providers", oauthProviderListSchema), staleTime: 5 * 60_000 });

/**
 * A mail account that signs in with its provider: POST /api/accounts with `auth`, then the browser goes to the
 * answer's signInUrl (the provider's consent page, and back to Settings > Accounts).
 */
export function useSignInAccount(go: (url: string) => void = (url) => window.location.assign(url)) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: SignInAccountRequest) => apiRequest("/api/accounts", { method: "POST", body: account, schema: accountSchema }),
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: accountsQueryKey });
      if (account.signInUrl) go(account.signInUrl);
    },
  });
}

export const useTestConnection = () =>
  useMutation({
    mutationFn: (account: CreateAnyAccountRequest) => apiRequest("/api/accounts/test", { method: "POST", body: account, schema: testConnectionResponseSchema }),
  });

/** PATCH /api/accounts/{id}: the account's new settings or secret (a password entered again starts a sync). */
export const useUpdateAccount = () =>
  useRefreshingMutation(({ id, patch }: { id: number; patch: object }) =>
    apiRequest(`/api/accounts/${id}`, { method: "PATCH", body: patch, schema: accountSchema }),
  );

export const useSyncAccount = () => useRefreshingMutation((id: number) => apiRequest(`/api/accounts/${id}/sync`, { method: "POST", schema: accountSchema }));

export const useDeleteAccount = () => useRefreshingMutation((id: number) => apiRequest(`/api/accounts/${id}`, { method: "DELETE" }));

export const calendarFeedQueryKey = ["calendar-feed"] as const;

/** GET /api/calendar/feed: the secret address of the reminders calendar (made on first use). */
export const useCalendarFeed = () => useQuery({ queryKey: calendarFeedQueryKey, queryFn: () => getJson("/api/calendar/feed", calendarFeedSchema) });

/** POST /api/calendar/feed/rotate: a new address; the old one stops working. */
export function useRotateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("/api/calendar/feed/rotate", { method: "POST", schema: calendarFeedSchema }),
    onSuccess: (feed) => queryClient.setQueryData(calendarFeedQueryKey, feed),
  });
}

export const timeZoneQueryKey = ["calendar-time-zone"] as const;

/** GET /api/calendar/time-zone: the zone calendars are read in, and whether the user chose it. */
export const useTimeZone = () => useQuery({ queryKey: timeZoneQueryKey, queryFn: () => getJson("/api/calendar/time-zone", timeZoneSettingSchema) });

/** PUT /api/calendar/time-zone: the user's calendars are read again in it. */
export function useSaveTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (timeZone: string) => apiRequest("/api/calendar/time-zone", { method: "PUT", body: { timeZone }, schema: timeZoneSettingSchema }),
    onSuccess: (setting) => {
      queryClient.setQueryData(timeZoneQueryKey, setting);
      void queryClient.invalidateQueries({ queryKey: accountsQueryKey });
    },
  });
}

/** GET /api/calendar/events: the synced events overlapping [from, to) (the Today panel's meetings), read again each 5 minutes. */
export const useCalendarEvents = (from: Date, to: Date) =>
  useQuery({
    queryKey: ["calendar-events", from.toISOString(), to.toISOString()],
    queryFn: () =>
      getJson(`/api/calendar/events?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`, calendarEventsResponseSchema),
    refetchInterval: 5 * 60_000,
  });
