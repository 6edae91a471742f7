import type { FastifyInstance } from "fastify";
import { assistantSettingsSchema, testConnectionResponseSchema, webSearchRequestSchema, webSearchResponseSchema } from "@sage/contracts/assistant";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import type { AssistantService } from "./assistant.service.ts";

/** Web search (under /api/gemini/ as the spec names it: it serves every provider) and the model settings. */
export function registerAssistantRoutes(app: FastifyInstance, deps: { service: AssistantService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The web search page reads a failure's text from `message`.
  api.post(
    "/api/gemini/web-search",
    {
      config: { errorAlsoAsMessage: true },
      schema: { summary: "Search the web and answer from what was found", body: webSearchRequestSchema, response: { 200: webSearchResponseSchema } },
    },
    async (request) => service.webSearch(request.body.query),
  );

  api.get(
    "/api/assistant/settings",
    { schema: { summary: "The model settings (never the key itself)", response: { 200: assistantSettingsSchema } } },
    async () => service.settings(),
  );
  api.post(
    "/api/assistant/test-connection",
    { schema: { summary: "Test the model connection with one tiny call", response: { 200: testConnectionResponseSchema } } },
    async () => service.testConnection(),
  );
}
