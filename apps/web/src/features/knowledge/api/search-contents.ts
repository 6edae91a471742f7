import { queryOptions, useQuery } from "@tanstack/react-query";
import { MAX_SEARCH_LIMIT, searchResponseSchema } from "@sage/contracts/retrieval";
import { apiRequest } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";

/** A file whose text matched, with the passage that matched best. */
export interface ContentHit {
  fileId: number;
  passage: string;
}

/** The user's files whose text matches, through the search index (the same search the assistant uses), best first. */
export async function searchContents(query: string): Promise<ContentHit[]> {
  const results = await apiRequest("/api/search", { method: "POST", body: { query, limit: MAX_SEARCH_LIMIT }, schema: searchResponseSchema });
  const hits = new Map<number, ContentHit>();
  for (const result of results) {
    const fileId = result.metadata.file_id;
    if (fileId !== undefined && !hits.has(fileId)) hits.set(fileId, { fileId, passage: result.content });
  }
  return [...hits.values()];
}

export const contentSearchQueryOptions = (query: string) =>
  queryOptions({ queryKey: [...knowledgeKeys.all, "content-search", query], queryFn: () => searchContents(query), staleTime: 30_000 });

export const useContentSearch = (query: string) => useQuery({ ...contentSearchQueryOptions(query), enabled: query.trim() !== "" });
