import { z } from "zod";
import { fetchJson, resultListSchema, toResults, type FetchLike, type WebSearchBackend } from "./web-search.ts";

const braveReplySchema = z.object({ web: resultListSchema.optional() });

export function createBraveSearch(options: { apiKey: string; baseUrl?: string; fetch?: FetchLike }): WebSearchBackend {
  const fetchImpl = options.fetch ?? fetch;
  return {
    kind: "brave",
    async search(query, { limit, signal }) {
      const url = new URL(`${options.baseUrl ?? "https://api.search.brave.com"}/res/v1/web/search`);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(limit));
      const body = await fetchJson(
        "Brave Search",
        fetchImpl,
        url.toString(),
        {
          headers: { accept: "application/json", "x-subscription-token": options.apiKey },
          signal,
        },
        braveReplySchema,
      );
      return toResults(body.web?.results, "description", limit);
    },
  };
}
