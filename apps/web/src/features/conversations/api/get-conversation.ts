import { queryOptions, useQuery } from "@tanstack/react-query";
import { conversationSchema, type Conversation } from "@sage/contracts/conversations";
import { ApiError, getJson } from "@/lib/api-client";

export const conversationQueryKey = (id: string) => ["conversations", id] as const;

/** null when the conversation does not exist (or is not this user's). */
export async function getConversation(id: string): Promise<Conversation | null> {
  if (!/^\d+$/.test(id)) return null;
  try {
    return await getJson(`/api/conversations/${id}`, conversationSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const conversationQueryOptions = (id: string) => queryOptions({ queryKey: conversationQueryKey(id), queryFn: () => getConversation(id) });

export const useConversation = (id: string) => useQuery(conversationQueryOptions(id));
