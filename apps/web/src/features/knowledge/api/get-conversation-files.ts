import { queryOptions, useQuery } from "@tanstack/react-query";
import { knowledgeItemListSchema, type KnowledgeItem } from "@sage/contracts/knowledge";
import { getJson } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";
import { pollEvery } from "@/lib/poll-every";

export async function getConversationFiles(conversationId: number): Promise<KnowledgeItem[]> {
  return (await getJson(`/api/conversations/${conversationId}/files`, knowledgeItemListSchema)) ?? [];
}

export const conversationFilesQueryOptions = (conversationId: number) =>
  queryOptions({
    queryKey: knowledgeKeys.conversationFiles(conversationId),
    queryFn: () => getConversationFiles(conversationId),
    refetchInterval: (query) => (query.state.data?.some((item) => item.status === "queued" || item.status === "processing") ? pollEvery(1500) : false),
  });

export const useConversationFiles = (conversationId: number) => useQuery(conversationFilesQueryOptions(conversationId));
