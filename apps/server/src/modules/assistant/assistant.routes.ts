import type { FastifyInstance } from "fastify";
import { webSearchRequestSchema } from "@sage/contracts/assistant";
import { parseInput } from "../../http/validate.ts";
import type { AssistantService } from "./assistant.service.ts";

/** Web search (under /api/gemini/ as the spec names it: it serves every provider) and the model settings. */
export function registerAssistantRoutes(app: FastifyInstance, deps: { service: AssistantService }) {
  const { service } = deps;

  // The web search page reads a failure's text from `message`.
  app.post("/api/gemini/web-search", { config: { errorAlsoAsMessage: true } }, async (request) => {
    const { query } = parseInput(webSearchRequestSchema, request.body, "body");
    return service.webSearch(query);
  });

  app.get("/api/assistant/settings", async () => service.settings());
  app.post("/api/assistant/test-connection", async () => service.testConnection());
}
