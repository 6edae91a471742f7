import { z } from "zod";
/** One web page a search found. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

/**
 * A web search backend for providers without built-in search grounding (Gemini grounds through the
 * LLM provider's searchWeb instead). Adapters: searxng, tavily, brave, fake.
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

/** GET/POST JSON with a clear error naming the backend and status; the reply is parsed with a schema of what is used. */
export async function fetchJson<T>(backend: string, fetchImpl: FetchLike, url: string, init: RequestInit, schema: z.ZodType<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetchImpl(url, init);
  } catch (error) {
    throw new WebSearchError(backend, undefined, `${backend} could not be reached: ${(error as Error).message}`);
  }
  if (!response.ok) throw new WebSearchError(backend, response.status, `${backend} answered ${response.status} ${response.statusText}`);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new WebSearchError(backend, response.status, `${backend} answered something that is not a search result list`);
  return parsed.data;
}

/** The result lists the backends answer: only the list itself is checked here; toResults reads each entry. */
export const resultListSchema = z.object({ results: z.array(z.unknown()).optional() });

const asText = (value: unknown) => (typeof value === "string" ? value : "");

export function toResults(items: unknown, snippetKey: string, limit: number): WebSearchResult[] {
  if (!Array.isArray(items)) return [];
  return items
    .map((entry) => {
      const item = (entry && typeof entry === "object" ? entry : {}) as Record<string, unknown>;
      return { title: asText(item.title) || asText(item.url), url: asText(item.url), snippet: asText(item[snippetKey]) };
    })
    .filter((item) => /^https?:\/\//i.test(item.url))
    .slice(0, limit);
}
