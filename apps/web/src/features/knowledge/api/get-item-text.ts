import { useQuery } from "@tanstack/react-query";
import { itemTextResponseSchema } from "@sage/contracts/knowledge";
import { getJson } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";

/** An item's text as it was read, by page, slide, sheet or heading (its preview); read once its passages exist. */
export function useItemText(id: number | undefined, chunkCount: number) {
  return useQuery({
    queryKey: [...knowledgeKeys.item(id ?? 0), "text", chunkCount] as const,
    queryFn: async () => (await getJson(`/api/files/${id}/text`, itemTextResponseSchema))?.sections ?? [],
    enabled: id !== undefined && chunkCount > 0,
    retry: false,
  });
}
