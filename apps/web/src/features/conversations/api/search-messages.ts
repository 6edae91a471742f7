import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { messageSearchResponseSchema, type MessageSearchHit } from "@sage/contracts/conversations";
import { getJson } from "@/lib/api-client";

/** A search shorter than this looks only at names: two letters match half of every conversation. */
export const MIN_MESSAGE_SEARCH = 2;

export async function searchMessages(query: string): Promise<MessageSearchHit[]> {
  return (await getJson(`/api/conversations/search?q=${encodeURIComponent(query)}&limit=20`, messageSearchResponseSchema)) ?? [];
}

/** Messages across all conversations that hold every word of `query` (already debounced by the caller). */
export const useMessageSearch = (query: string) =>
  useQuery({
    queryKey: ["conversations", "message-search", query],
    queryFn: () => searchMessages(query),
    enabled: query.trim().length >= MIN_MESSAGE_SEARCH,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
