import { queryOptions, useQuery } from "@tanstack/react-query";
import { knowledgeItemListSchema, type KnowledgeItem } from "@sage/contracts/knowledge";
import { getJson } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";
import { sessionUserId } from "@/lib/session-user-id";

/** The folder tree (folders nested under `items`). */
export async function getFolders(): Promise<KnowledgeItem[]> {
  return (await getJson(`/api/folders?userId=${sessionUserId()}`, knowledgeItemListSchema)) ?? [];
}

export const foldersQueryOptions = () => queryOptions({ queryKey: knowledgeKeys.folders, queryFn: getFolders, staleTime: 0 });

export const useFolders = (enabled = true) => useQuery({ ...foldersQueryOptions(), enabled });
