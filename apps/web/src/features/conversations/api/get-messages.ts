import { queryOptions, useQuery } from "@tanstack/react-query";
import { messageListSchema, type Message } from "@sage/contracts/conversations";
import { getJson } from "@/lib/api-client";

export const messagesQueryKey = (id: string) => ["conversations", id, "messages"] as const;

export async function getMessages(id: string): Promise<Message[]> {
  const messages = (await getJson(`/api/conversations/${id}/messages`, messageListSchema)) ?? [];
  return [...messages].sort((a, b) => a.id - b.id);
}

/** Messages are never cached: each opening of a conversation reads them afresh. */
export const messagesQueryOptions = (id: string) =>
  queryOptions({ queryKey: messagesQueryKey(id), queryFn: () => getMessages(id), staleTime: 0, gcTime: 0, refetchOnMount: "always" });

export const useMessages = (id: string) => useQuery(messagesQueryOptions(id));
