import type { Config } from "../../config.ts";
import { createBraveSearch } from "./brave.ts";
import { createSearxngSearch } from "./searxng.ts";
import { createTavilySearch } from "./tavily.ts";
import type { WebSearchBackend } from "./web-search.ts";

/**
 * How web searches run: "gemini" = the LLM's Google Search grounding; a backend; or none.
 * "auto" prefers Gemini grounding when the LLM is Gemini, then SearXNG, Tavily, Brave.
 */
export type WebSearchSetup = { kind: "gemini" } | { kind: "backend"; backend: WebSearchBackend } | { kind: "none" };

export function createWebSearch(config: Config["webSearch"], llmProvider: string | undefined): WebSearchSetup {
  const backend = (kind: string): WebSearchBackend | null => {
    if (kind === "searxng" && config.searxngUrl) return createSearxngSearch({ baseUrl: config.searxngUrl });
    if (kind === "tavily" && config.tavilyApiKey) return createTavilySearch({ apiKey: config.tavilyApiKey });
    if (kind === "brave" && config.braveApiKey) return createBraveSearch({ apiKey: config.braveApiKey });
    return null;
  };
  if (config.kind === "none") return { kind: "none" };
  if (config.kind === "gemini") return llmProvider === "gemini" ? { kind: "gemini" } : { kind: "none" };
  if (config.kind !== "auto") {
    const chosen = backend(config.kind);
    return chosen ? { kind: "backend", backend: chosen } : { kind: "none" };
  }
  if (llmProvider === "gemini") return { kind: "gemini" };
  for (const kind of ["searxng", "tavily", "brave"]) {
    const chosen = backend(kind);
    if (chosen) return { kind: "backend", backend: chosen };
  }
  return { kind: "none" };
}
