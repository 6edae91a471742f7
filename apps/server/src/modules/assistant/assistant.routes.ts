import type { FastifyInstance, FastifyReply } from "fastify";
import { chatRequestSchema, functionResponseRequestSchema, webSearchRequestSchema } from "@sage/contracts/assistant";
import { AppError } from "../../http/app-error.ts";
import { parseInput } from "../../http/validate.ts";
import type { Providers } from "../../providers/registry.ts";
import { createAssistantService, type TurnOptions } from "./assistant.service.ts";
import { replyWithEventStream } from "./event-stream.ts";

/** Spec section 7 'Assistant' plus the model-settings routes of the settings page. */
export function registerAssistantRoutes(app: FastifyInstance, deps: { providers: Pick<Providers, "llm" | "webSearch"> }) {
  const service = createAssistantService({ llm: deps.providers.llm, webSearch: deps.providers.webSearch });
  const logError = (error: unknown) => app.log.error({ err: error }, "assistant stream failed");

  /** JSON by default; with `stream: true` server-sent events. Input and model are checked before streaming starts. */
  async function turn<T>(reply: FastifyReply, stream: boolean | undefined, run: (options: TurnOptions) => Promise<T>) {
    if (!stream) return run({});
    await replyWithEventStream(reply, ({ send, signal }) => run({ signal, onDelta: (delta) => send("text-delta", { delta }) }), logError);
    return reply;
  }

  app.post("/api/gemini/chat", async (request, reply) => {
    const body = parseInput(chatRequestSchema, request.body, "body");
    service.checkTurn(body);
    return turn(reply, body.stream, (options) => service.chat(body, options));
  });

  app.post("/api/gemini/function-response", async (request, reply) => {
    const body = parseInput(functionResponseRequestSchema, request.body, "body");
    service.checkTurn(body);
    return turn(reply, body.stream, (options) => service.functionResponse(body, options));
  });

  // Errors here also carry `message` (the spec's web search response reads it).
  app.post("/api/gemini/web-search", async (request, reply) => {
    try {
      const { query } = parseInput(webSearchRequestSchema, request.body, "body");
      return await service.webSearch(query);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return reply.status(error.status).send({ error: error.message, message: error.message, code: error.code });
    }
  });

  app.get("/api/assistant/settings", async () => service.settings());
  app.post("/api/assistant/test-connection", async () => service.testConnection());
}
