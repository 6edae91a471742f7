import type { FastifyInstance, FastifyReply } from "fastify";
import { chatRequestSchema, functionResponseRequestSchema, webSearchRequestSchema } from "@sage/contracts/assistant";
import { replyWithEventStream } from "../../http/event-stream.ts";
import { parseInput } from "../../http/validate.ts";
import type { AssistantService, TurnOptions } from "./assistant.service.ts";

/** The assistant's calls (under /api/gemini/ for the web app's sake: they serve every provider) and model settings. */
export function registerAssistantRoutes(app: FastifyInstance, deps: { service: AssistantService }) {
  const { service } = deps;
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

  // The web search page reads a failure's text from `message`.
  app.post("/api/gemini/web-search", { config: { errorAlsoAsMessage: true } }, async (request) => {
    const { query } = parseInput(webSearchRequestSchema, request.body, "body");
    return service.webSearch(query);
  });

  app.get("/api/assistant/settings", async () => service.settings());
  app.post("/api/assistant/test-connection", async () => service.testConnection());
}
