import { fetchJson, resultListSchema, toResults, type FetchLike, type WebSearchBackend } from "./web-search.ts";

/** A SearXNG instance with the JSON format enabled (settings.yml: search.formats includes json). */
export function createSearxngSearch(options: { baseUrl: string; fetch?: FetchLike }): WebSearchBackend {
  const fetchImpl = options.fetch ?? fetch;
  return {
    kind: "searxng",
    async search(query, { limit, signal }) {
      const url = new URL("search", options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      const body = await fetchJson("SearXNG", fetchImpl, url.toString(), { headers: { accept: "application/json" }, signal }, resultListSchema);
      return toResults(body.results, "content", limit);
    },
  };
}
