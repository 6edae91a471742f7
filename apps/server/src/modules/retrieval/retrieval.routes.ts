import type { FastifyInstance } from "fastify";
import { recommendRequestSchema, searchRequestSchema, testQueryRequestSchema } from "@sage/contracts/retrieval";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { KnowledgeAnswerer } from "./answer-from-knowledge.ts";
import type { RetrievalService } from "./retrieval.service.ts";

export function registerRetrievalRoutes(app: FastifyInstance, deps: { retrieval: RetrievalService; answerFromKnowledge: KnowledgeAnswerer }) {
  app.post("/api/search", async (request) => {
    const user = requireUser(request);
    const input = parseInput(searchRequestSchema, request.body, "body");
    return deps.retrieval.search({
      userId: user.id,
      query: input.query,
      limit: input.limit,
      conversationId: input.conversation_id ?? input.conversationId ?? undefined,
    });
  });

  app.post("/api/recommend-files", async (request) => {
    const user = requireUser(request);
    const input = parseInput(recommendRequestSchema, request.body, "body");
    return deps.retrieval.recommend({
      userId: user.id,
      queryText: input.query_text,
      limit: input.limit,
      conversationId: input.conversation_id ?? undefined,
    });
  });

  // The vector-augmented test page; it reads a failure's text from `message`.
  app.post("/api/test/gemini/query", { config: { errorAlsoAsMessage: true } }, async (request) => {
    const user = requireUser(request);
    const { query } = parseInput(testQueryRequestSchema, request.body, "body");
    return deps.answerFromKnowledge(user.id, query);
  });
}
