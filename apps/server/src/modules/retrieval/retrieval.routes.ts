import type { FastifyInstance } from "fastify";
import {
  recommendRequestSchema,
  recommendResponseSchema,
  searchRequestSchema,
  searchResponseSchema,
  testQueryRequestSchema,
  testQueryResponseSchema,
} from "@sage/contracts/retrieval";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { KnowledgeAnswerer } from "./answer-from-knowledge.ts";
import type { RetrievalService } from "./retrieval.service.ts";

export function registerRetrievalRoutes(app: FastifyInstance, deps: { retrieval: RetrievalService; answerFromKnowledge: KnowledgeAnswerer }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/search",
    { schema: { summary: "Search the user's knowledge base", body: searchRequestSchema, response: { 200: searchResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      const input = request.body;
      return deps.retrieval.search({
        userId: user.id,
        query: input.query,
        limit: input.limit,
        conversationId: input.conversation_id ?? input.conversationId ?? undefined,
      });
    },
  );

  api.post(
    "/api/recommend-files",
    { schema: { summary: "Files that fit a text, best first", body: recommendRequestSchema, response: { 200: recommendResponseSchema } } },
    async (request) => {
      const user = requireUser(request);
      const input = request.body;
      return deps.retrieval.recommend({
        userId: user.id,
        queryText: input.query_text,
        limit: input.limit,
        conversationId: input.conversation_id ?? undefined,
      });
    },
  );

  // The vector-augmented test page; it reads a failure's text from `message`.
  api.post(
    "/api/test/gemini/query",
    {
      config: { errorAlsoAsMessage: true },
      schema: {
        summary: "Answer a question from the knowledge base (the test page)",
        body: testQueryRequestSchema,
        response: { 200: testQueryResponseSchema },
      },
    },
    async (request) => deps.answerFromKnowledge(requireUser(request).id, request.body.query),
  );
}
