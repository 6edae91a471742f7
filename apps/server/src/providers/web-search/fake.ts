import type { WebSearchBackend, WebSearchResult } from "./web-search.ts";

/** An in-memory backend for tests: answers the scripted results (or an error) and records queries. */
export function createFakeWebSearch(results: WebSearchResult[] = []): WebSearchBackend & { queries: string[]; failWith?: Error } {
  const fake: WebSearchBackend & { queries: string[]; failWith?: Error } = {
    kind: "fake",
    queries: [],
    async search(query, { limit }) {
      fake.queries.push(query);
      if (fake.failWith) throw fake.failWith;
      return results.slice(0, limit);
    },
  };
  return fake;
}
