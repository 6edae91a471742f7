import { CHAT_TEXTS, foundDocuments, searchException, searchHttpError } from "@sage/contracts/chat-turn";
import { DEFAULT_SEARCH_LIMIT } from "@sage/contracts/retrieval";
import { AppError } from "../../../http/app-error.ts";
import { statusText } from "../../../http/error-handler.ts";
import type { DocumentSearchPort } from "../../retrieval/retrieval.module.ts";
import { queryTool, type AssistantTool } from "./assistant-tool.ts";

/** searchDocuments: the conversation's knowledge and the system knowledge base; each result numbered for citing. */
export function searchDocumentsTool(search: DocumentSearchPort): AssistantTool {
  return queryTool({
    name: "searchDocuments",
    description: "Search the user's uploaded documents and knowledge base. Results are numbered [n]; cite them as [n].",
    queryDescription: "What to look for",
    blank: { results: [], message: CHAT_TEXTS.noSearchQuery },
    async search(query, context) {
      try {
        const found = await search.search({ userId: context.userId, query, limit: DEFAULT_SEARCH_LIMIT, conversationId: context.conversationId });
        if (found.length === 0) return { result: { results: [], message: CHAT_TEXTS.noDocuments } };
        const cited = context.cite(found);
        const results = found.map((result, index) => ({ n: cited[index]!.n, ...result }));
        // A passage is text the user did not type (a document may carry instructions for the model).
        const untrusted = found.map((result) => ({
          source: { title: result.metadata.filename, ...(result.metadata.file_id ? { fileId: result.metadata.file_id } : {}) },
          text: result.content,
        }));
        return { result: { results, message: foundDocuments(found.length) }, untrusted };
      } catch (error) {
        if (error instanceof AppError) return { result: { results: [], message: searchHttpError(error.status, statusText(error.status)) } };
        return { result: { results: [], message: error instanceof Error ? searchException(error.message) : CHAT_TEXTS.unknownError } };
      }
    },
  });
}
