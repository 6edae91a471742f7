import { queryOptions, useQuery } from "@tanstack/react-query";
import { knowledgeItemSchema, type KnowledgeItem } from "@sage/contracts/knowledge";
import { getJson } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";

export const getItem = (id: number): Promise<KnowledgeItem | null> => getJson(`/api/files/${id}`, knowledgeItemSchema);

/** One knowledge item (a cited file); disabled until there is an id. */
export const itemQueryOptions = (id: number | undefined) =>
  queryOptions({ queryKey: knowledgeKeys.item(id ?? 0), queryFn: () => getItem(id!), enabled: id !== undefined, retry: false });

export const useItem = (id: number | undefined) => useQuery(itemQueryOptions(id));
