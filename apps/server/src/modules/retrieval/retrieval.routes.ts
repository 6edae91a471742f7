import type { FastifyInstance } from "fastify";
import { recommendRequestSchema, searchRequestSchema } from "@sage/contracts/retrieval";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { RetrievalService } from "./retrieval.service.ts";

export function registerRetrievalRoutes(app: FastifyInstance, deps: { retrieval: RetrievalService }) {
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
}
