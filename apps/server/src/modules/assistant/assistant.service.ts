import type { WebSearchResponse, WebSource } from "@sage/contracts/assistant";
import { NO_SEARCH_QUERY_MESSAGE } from "@sage/contracts/assistant";
import { AppError, badRequest } from "../../http/app-error.ts";
import { LLM_NOT_CONFIGURED_MESSAGE, type LlmProvider } from "../../providers/llm/llm.ts";
import type { WebSearchSetup } from "../../providers/web-search/create-web-search.ts";
import { modelFailure, withModelTimeout as withTimeout } from "./model-call.ts";

export const WEB_SEARCH_NOT_CONFIGURED_MESSAGE =
  "Web search is not configured. Use Gemini (GEMINI_API_KEY) for Google Search grounding, or set SAGE_SEARXNG_URL, " +
  "SAGE_TAVILY_API_KEY or SAGE_BRAVE_API_KEY, then restart SAGE.";
const WEB_RESULTS = 5;

export function createAssistantService(deps: { llm: LlmProvider | null; webSearch: WebSearchSetup }) {
  const { llm } = deps;

  /** The model id to use; a model the server does not allow is a 400. Null when no provider is configured. */
  function resolveModel(requested: string | undefined): string | null {
    if (!llm) return null;
    const modelId = requested?.trim() || llm.modelId;
    if (!llm.allowedModels.includes(modelId)) {
      throw badRequest(`Model "${modelId}" is not allowed. Allowed models: ${llm.allowedModels.join(", ")}`, "model_not_allowed");
    }
    return modelId;
  }

  function groundingText(sources: WebSource[]): string {
    return sources.map((source, index) => `${index + 1}. ${source.title}\n   ${source.url}`).join("\n");
  }

  return {
    resolveModel,

    /** POST /api/gemini/web-search: Gemini grounding, or a search backend whose results the model summarises. */
    async webSearch(query: string, signal?: AbortSignal): Promise<WebSearchResponse> {
      if (!query.trim()) throw badRequest(NO_SEARCH_QUERY_MESSAGE, "no_query");
      const setup = deps.webSearch;
      if (setup.kind === "none" || (setup.kind === "gemini" && !llm?.searchWeb)) {
        throw new AppError("web_search_not_configured", 503, WEB_SEARCH_NOT_CONFIGURED_MESSAGE);
      }
      const abortSignal = withTimeout(signal);
      if (setup.kind === "gemini") {
        try {
          const answer = await llm!.searchWeb!(query, { signal: abortSignal });
          return { response: answer.text, groundingData: groundingText(answer.sources), sources: answer.sources };
        } catch (error) {
          throw modelFailure(error);
        }
      }
      let results;
      try {
        results = await setup.backend.search(query, { limit: WEB_RESULTS, signal: abortSignal });
      } catch (error) {
        throw new AppError("web_search_failed", 502, `Web search failed: ${(error as Error).message}`);
      }
      const sources = results.map((result) => ({ title: result.title, url: result.url }));
      const listing = results.map((result, index) => `[${index + 1}] ${result.title} (${result.url})\n${result.snippet}`).join("\n\n");
      if (!llm || results.length === 0) {
        const response = results.length ? results.map((result) => `- [${result.title}](${result.url}): ${result.snippet}`).join("\n") : "No web results found.";
        return { response, groundingData: groundingText(sources), sources };
      }
      try {
        const { text } = await llm.generate({
          system: "Answer the question using only these web search results. Cite sources as [n]. Say so if they do not answer it.",
          messages: [{ role: "user", content: `Question: ${query}\n\nWeb search results:\n${listing}` }],
          signal: abortSignal,
        });
        return { response: text, groundingData: groundingText(sources), sources };
      } catch (error) {
        throw modelFailure(error);
      }
    },

    settings() {
      const search = deps.webSearch;
      return {
        provider: llm?.provider ?? ("none" as const),
        modelId: llm?.modelId ?? null,
        allowedModels: llm ? [...llm.allowedModels] : [],
        keySet: llm?.keySet ?? false,
        baseUrl: llm?.baseUrl ? stripCredentials(llm.baseUrl) : null,
        webSearch: search.kind === "backend" ? search.backend.kind : search.kind,
      };
    },

    /** One tiny model call so the settings page can tell the user whether the model answers. */
    async testConnection(): Promise<{ ok: boolean; message: string }> {
      if (!llm) return { ok: false, message: LLM_NOT_CONFIGURED_MESSAGE };
      try {
        await llm.generate({ messages: [{ role: "user", content: "Reply with the single word OK." }], signal: AbortSignal.timeout(30_000) });
        return { ok: true, message: `Connected: ${llm.provider} answered with model ${llm.modelId}.` };
      } catch (error) {
        return { ok: false, message: `Connection failed: ${(modelFailure(error) as Error).message}` };
      }
    },
  };
}

function stripCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return "";
  }
}

export type AssistantService = ReturnType<typeof createAssistantService>;
