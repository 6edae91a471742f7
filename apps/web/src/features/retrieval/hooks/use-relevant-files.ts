import { useState } from "react";
import { RECOMMENDATION_THRESHOLD } from "@sage/contracts/retrieval";
import { useRecommendations } from "../api/recommend-files";
import { useDebouncedValue } from "@/lib/use-debounced-value";

/** Recommendations follow the draft once it is 10 characters or more, debounced by 500 ms. */
export const RECOMMENDATION_DEBOUNCE_MS = 500;
export const RECOMMENDATION_MIN_CHARACTERS = 10;

/**
 * The files relevant to the draft, at or above the 40% threshold: read by the Relevant Files panel and, on a
 * phone where that panel is closed, by the Files button's count (both share one cached request).
 */
export function useRelevantFiles(conversationId: number, queryText: string) {
  const debounced = useDebouncedValue(queryText.trim(), RECOMMENDATION_DEBOUNCE_MS);
  // The last text long enough to ask about stays in force while shorter text is typed.
  const [activeQuery, setActiveQuery] = useState("");
  if (debounced.length >= RECOMMENDATION_MIN_CHARACTERS && debounced !== activeQuery) setActiveQuery(debounced);
  const recommendations = useRecommendations(conversationId, activeQuery);
  const shown = (recommendations.data ?? []).filter((item) => item.score >= RECOMMENDATION_THRESHOLD);
  return { activeQuery, recommendations, shown };
}
