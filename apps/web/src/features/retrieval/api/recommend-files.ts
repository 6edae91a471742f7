import { queryOptions, useQuery } from "@tanstack/react-query";
import { DEFAULT_SEARCH_LIMIT, recommendResponseSchema, type Recommendation } from "@sage/contracts/retrieval";
import { apiRequest } from "@/lib/api-client";

/** Recommendations are cached for 60 s and refreshed every 60 s. */
export const RECOMMENDATION_CACHE_MS = 60_000;

export function recommendFiles(conversationId: number, queryText: string): Promise<Recommendation[]> {
  return apiRequest("/api/recommend-files", {
    method: "POST",
    body: { conversation_id: conversationId, query_text: queryText, limit: DEFAULT_SEARCH_LIMIT },
    schema: recommendResponseSchema,
  });
}

export const recommendationsQueryOptions = (conversationId: number, queryText: string) =>
  queryOptions({
    queryKey: ["recommendations", conversationId, queryText] as const,
    queryFn: () => recommendFiles(conversationId, queryText),
    staleTime: RECOMMENDATION_CACHE_MS,
    gcTime: RECOMMENDATION_CACHE_MS,
    refetchInterval: RECOMMENDATION_CACHE_MS,
    enabled: queryText.length > 0,
  });

export function useRecommendations(conversationId: number, queryText: string) {
  return useQuery(recommendationsQueryOptions(conversationId, queryText));
}
