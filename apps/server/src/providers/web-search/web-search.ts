/** One web page a search found. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

/**
 * A web search backend for providers without built-in search grounding (Gemini grounds through the
 * LLM provider's nativeWebSearchTool instead). Adapters: searxng, tavily, brave, fake.
 */
export interface WebSearchBackend {
  readonly kind: "searxng" | "tavily" | "brave" | "fake";
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<WebSearchResult[]>;
}

export class WebSearchError extends Error {
  constructor(
    readonly backend: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

export type FetchLike = typeof fetch;

/** GET/POST JSON with a clear error naming the backend and status. */
export async function fetchJson(backend: string, fetchImpl: FetchLike, url: string, init: RequestInit): Promise<any> {
  let response: Response;
  try {
    response = await fetchImpl(url, init);
  } catch (error) {
    throw new WebSearchError(backend, undefined, `${backend} could not be reached: ${(error as Error).message}`);
  }
  if (!response.ok) throw new WebSearchError(backend, response.status, `${backend} answered ${response.status} ${response.statusText}`);
  return response.json();
}

const asText = (value: unknown) => (typeof value === "string" ? value : "");

export function toResults(items: unknown, snippetKey: string, limit: number): WebSearchResult[] {
  if (!Array.isArray(items)) return [];
  return items
    .map((item: any) => ({ title: asText(item?.title) || asText(item?.url), url: asText(item?.url), snippet: asText(item?.[snippetKey]) }))
    .filter((item) => /^https?:\/\//i.test(item.url))
    .slice(0, limit);
}
