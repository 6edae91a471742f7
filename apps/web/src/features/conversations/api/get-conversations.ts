import { queryOptions, useQuery } from "@tanstack/react-query";
import { conversationListSchema, type ConversationListItem } from "@sage/contracts/conversations";
import { getJson } from "@/lib/api-client";

export const conversationsQueryKey = ["conversations"] as const;

export async function getConversations(): Promise<ConversationListItem[]> {
  return (await getJson("/api/conversations", conversationListSchema)) ?? [];
}

/** Unlike other reads, the conversation list gets one retry and is refetched whenever the page opens. */
export const conversationsQueryOptions = () =>
  queryOptions({ queryKey: conversationsQueryKey, queryFn: getConversations, retry: 1, refetchOnMount: "always", staleTime: 0 });

export const useConversations = () => useQuery(conversationsQueryOptions());
