import { fetchJson, resultListSchema, toResults, type FetchLike, type WebSearchBackend } from "./web-search.ts";

export function createTavilySearch(options: { apiKey: string; baseUrl?: string; fetch?: FetchLike }): WebSearchBackend {
  const fetchImpl = options.fetch ?? fetch;
  return {
    kind: "tavily",
    async search(query, { limit, signal }) {
      const body = await fetchJson(
        "Tavily",
        fetchImpl,
        `${options.baseUrl ?? "https://api.tavily.com"}/search`,
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
          body: JSON.stringify({ query, max_results: limit }),
          signal,
        },
        resultListSchema,
      );
      return toResults(body.results, "content", limit);
    },
  };
}
