import type { WebSearchResponse, WebSource } from "@sage/contracts/assistant";
import { CHAT_TEXTS, webSearchHttpError } from "@sage/contracts/chat-turn";
import { AppError } from "../../../http/app-error.ts";
import { statusText } from "../../../http/error-handler.ts";
import { queryTool, type AssistantTool } from "./assistant-tool.ts";

/** performWebSearch: the same search as POST /api/gemini/web-search, called in-process. */
export function webSearchTool(webSearch: (query: string, signal?: AbortSignal) => Promise<WebSearchResponse>): AssistantTool {
  return queryTool({
    name: "performWebSearch",
    description: "Search the web for current information. Write the query in English.",
    queryDescription: "The search query, in English",
    blank: { success: false, message: CHAT_TEXTS.noSearchQuery },
    // The query goes to the search service: words from a document or a memory there need the user's Approve.
    reach: "query",
    async search(query, context) {
      try {
        const data = await webSearch(query, context.signal);
        return {
          result: { success: true, message: CHAT_TEXTS.webSearchDone, response: data.response, groundingData: data.groundingData, sources: data.sources },
          sources: data.sources,
          untrusted: [
            { source: { title: webLabels(data.sources).join(" and ") }, text: `${data.response}\n${data.sources.map((source) => source.url).join("\n")}` },
          ],
        };
      } catch (error) {
        if (error instanceof AppError) return { result: { success: false, message: webSearchHttpError(error.status, statusText(error.status)) } };
        if ((error as Error)?.name === "AbortError") throw error;
        return { result: { success: false, message: error instanceof Error && error.message ? error.message : CHAT_TEXTS.unknownError } };
      }
    },
  });
}

/** The web sites a search answer drew on, as a card names them ("example.com"); "the web" when it names none. */
function webLabels(sources: readonly WebSource[]): string[] {
  const hosts = sources.flatMap((source) => {
    try {
      return [new URL(source.url).hostname.replace(/^www\./, "")];
    } catch {
      return source.title ? [source.title] : [];
    }
  });
  return hosts.length > 0 ? [...new Set(hosts)] : ["the web"];
}
