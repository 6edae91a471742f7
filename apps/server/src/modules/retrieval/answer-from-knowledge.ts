import { NO_SEARCH_QUERY_MESSAGE, testQueryFailed } from "@sage/contracts/retrieval";
import { AppError, badRequest } from "../../http/app-error.ts";
import { LLM_NOT_CONFIGURED_MESSAGE, type LlmProvider } from "../../providers/llm/llm.ts";
import type { RetrievalService } from "./retrieval.service.ts";

const CONTEXT_CHUNKS = 5;

/**
 * The vector-augmented test page's answer: retrieves from the user's whole knowledge base and answers with the
 * chat model, citing sources by number.
 */
export function createKnowledgeAnswerer(deps: { retrieval: Pick<RetrievalService, "search">; llm: LlmProvider | null }) {
  return async function answerFromKnowledge(userId: number, query: string) {
    if (!query.trim()) throw badRequest(NO_SEARCH_QUERY_MESSAGE, "no_query");
    if (!deps.llm) throw new AppError("llm_not_configured", 503, LLM_NOT_CONFIGURED_MESSAGE);
    const results = await deps.retrieval.search({ userId, query, limit: CONTEXT_CHUNKS });
    const context = results.length
      ? results.map((result, index) => `[${index + 1}] ${result.metadata.filename} (${result.metadata.source})\n${result.content}`).join("\n\n")
      : "(The knowledge base has nothing relevant to this question.)";
    try {
      const { text } = await deps.llm.generate({
        system:
          "Answer the question using the numbered knowledge-base excerpts below. Cite them as [1], [2]... and end with a " +
          "'Sources' list naming each cited file. If the excerpts do not answer it, say so and answer from general knowledge.",
        messages: [{ role: "user", content: `Knowledge base excerpts:\n\n${context}\n\nQuestion: ${query.trim()}` }],
      });
      return {
        response: text,
        sources: results.map((result) => ({ filename: result.metadata.filename, source: result.metadata.source, score: result.score })),
      };
    } catch (error) {
      const failed = testQueryFailed(deps.llm.provider);
      const detail = error instanceof Error && error.message ? `${failed}: ${error.message}` : failed;
      throw new AppError("model_error", 502, detail);
    }
  };
}

export type KnowledgeAnswerer = ReturnType<typeof createKnowledgeAnswerer>;
