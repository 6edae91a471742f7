import type { Config } from "../config.ts";
import { createEmbedder } from "./embedder/create-embedder.ts";
import type { Embedder } from "./embedder/embedder.ts";
import { createLlm } from "./llm/create-llm.ts";
import type { LlmProvider } from "./llm/llm.ts";
import { createWebSearch, type WebSearchSetup } from "./web-search/create-web-search.ts";

/** Every external capability the app uses, chosen once at start-up from config. Later modules add theirs. */
export interface Providers {
  /** A human-readable line per capability for the start-up log and the settings page. */
  describe(): Record<string, string>;
  /** The chat model (providers/llm/llm.ts), or null when no provider is configured. */
  llm: LlmProvider | null;
  /** How web searches run: Gemini grounding, a search backend (SearXNG/Tavily/Brave), or none. */
  webSearch: WebSearchSetup;
  /** Turns chunks and queries into vectors; null or absent means search is lexical only. */
  embedder?: Embedder | null;
}

export function createProviders(config: Config): Providers {
  const llm = createLlm(config.llm);
  const webSearch = createWebSearch(config.webSearch, llm?.provider);
  const embedder = createEmbedder(config);
  return {
    llm,
    webSearch,
    embedder: embedder.embedder,
    describe: () => ({
      llm: llm ? `${llm.provider} ${llm.modelId}` : "not configured",
      webSearch: webSearch.kind === "backend" ? webSearch.backend.kind : webSearch.kind,
      embedder: embedder.description,
    }),
  };
}
