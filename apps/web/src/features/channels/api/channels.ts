import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  channelListSchema,
  channelSchema,
  notificationTargetsSchema,
  pairingResponseSchema,
  type CreateChannelInput,
  type NotificationTargets,
} from "@sage/contracts/channels";
import { apiRequest, getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const channelsQueryKey = ["channels"] as const;
export const targetsQueryKey = ["notification-targets"] as const;

/** GET /api/channels; polled while a code waits to be sent, so the row turns "Connected" when the chat pairs. */
export const useChannels = () =>
  useQuery({
    queryKey: channelsQueryKey,
    queryFn: () => getJson("/api/channels", channelListSchema),
    refetchInterval: (query) =>
      query.state.data?.channels.some((channel) => channel.status === "unpaired" && channel.pairingExpiresAt) ? pollEvery(2_000) : false,
  });

function useChannelMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: channelsQueryKey });
      await queryClient.invalidateQueries({ queryKey: targetsQueryKey });
    },
  });
}

/** POST /api/channels: the bot is checked with its service; answers the first pairing code. */
export const useCreateChannel = () =>
  useChannelMutation((input: CreateChannelInput) => apiRequest("/api/channels", { method: "POST", body: input, schema: pairingResponseSchema }));

/** POST /api/channels/{id}/pairing: a new one-time code (the old one stops working). */
export const useNewPairingCode = () =>
  useChannelMutation((id: number) => apiRequest(`/api/channels/${id}/pairing`, { method: "POST", schema: pairingResponseSchema }));

/** PATCH /api/channels/{id}: whether the next pairing may be a group chat. */
export const useAllowGroup = () =>
  useChannelMutation(({ id, allowGroup }: { id: number; allowGroup: boolean }) =>
    apiRequest(`/api/channels/${id}`, { method: "PATCH", body: { allowGroup }, schema: channelSchema }),
  );

export const useDeleteChannel = () => useChannelMutation((id: number) => apiRequest(`/api/channels/${id}`, { method: "DELETE" }));

/** GET /api/notifications/targets: where the briefing, reminders, runs and approvals reach the user. */
export const useNotificationTargets = () =>
  useQuery({ queryKey: targetsQueryKey, queryFn: () => getJson("/api/notifications/targets", notificationTargetsSchema) });

export function useSaveNotificationTargets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (targets: NotificationTargets) => apiRequest("/api/notifications/targets", { method: "PUT", body: targets, schema: notificationTargetsSchema }),
    onSuccess: (saved) => queryClient.setQueryData(targetsQueryKey, saved),
  });
}
