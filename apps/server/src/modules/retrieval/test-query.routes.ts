import { generateText } from "ai";
import type { FastifyInstance } from "fastify";
import { NO_SEARCH_QUERY_MESSAGE, TEST_QUERY_FAILED_MESSAGE, testQueryRequestSchema } from "@sage/contracts/retrieval";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import { LLM_NOT_CONFIGURED_MESSAGE, type LlmProvider } from "../../providers/llm/llm.ts";
import type { RetrievalService } from "./retrieval.service.ts";

const CONTEXT_CHUNKS = 5;

/**
 * POST /api/test/gemini/query: the vector-augmented test page. Retrieves from the user's whole knowledge base,
 * answers with the chat model, citing sources by number. Failures answer `{ message, error }` with the reason.
 */
export function registerTestQueryRoutes(app: FastifyInstance, deps: { retrieval: RetrievalService; llm: LlmProvider | null }) {
  app.post("/api/test/gemini/query", async (request, reply) => {
    const user = requireUser(request);
    const { query } = parseInput(testQueryRequestSchema, request.body, "body");
    const fail = (status: number, message: string) => reply.status(status).send({ message, error: message });
    if (!query.trim()) return fail(400, NO_SEARCH_QUERY_MESSAGE);
    if (!deps.llm) return fail(503, LLM_NOT_CONFIGURED_MESSAGE);

    const results = await deps.retrieval.search({ userId: user.id, query, limit: CONTEXT_CHUNKS });
    const context = results.length
      ? results.map((result, index) => `[${index + 1}] ${result.metadata.filename} (${result.metadata.source})\n${result.content}`).join("\n\n")
      : "(The knowledge base has nothing relevant to this question.)";
    try {
      const { text } = await generateText({
        model: deps.llm.languageModel(),
        system:
          "Answer the question using the numbered knowledge-base excerpts below. Cite them as [1], [2]... and end with a " +
          "'Sources' list naming each cited file. If the excerpts do not answer it, say so and answer from general knowledge.",
        prompt: `Knowledge base excerpts:\n\n${context}\n\nQuestion: ${query.trim()}`,
        maxRetries: 0,
      });
      return {
        response: text,
        sources: results.map((result) => ({ filename: result.metadata.filename, source: result.metadata.source, score: result.score })),
      };
    } catch (error) {
      request.log.warn({ err: error }, "test query failed");
      const detail = error instanceof Error && error.message ? `${TEST_QUERY_FAILED_MESSAGE}: ${error.message}` : TEST_QUERY_FAILED_MESSAGE;
      return fail(502, detail);
    }
  });
}
