import type { FastifyInstance, FastifyReply } from "fastify";
import { chatRequestSchema, functionResponseRequestSchema, type CompatStreamEvent, type CompatStreamEventOf } from "@sage/contracts/gemini-compat";
import { replyWithEventStream } from "../../../http/event-stream.ts";
import { parseInput } from "../../../http/validate.ts";
import type { CompatCallOptions, GeminiCompatService } from "./gemini-compat.service.ts";

/**
 * POST /api/gemini/chat and /api/gemini/function-response, as the spec lists them (decision 024): JSON by
 * default, server-sent events with `stream: true`. Input and model are checked before streaming starts.
 */
export function registerGeminiCompatRoutes(app: FastifyInstance, deps: { service: GeminiCompatService }) {
  const { service } = deps;
  const logError = (error: unknown) => app.log.error({ err: error }, "assistant stream failed");

  async function answer(
    reply: FastifyReply,
    stream: boolean | undefined,
    run: (options: CompatCallOptions) => Promise<Omit<CompatStreamEventOf<"finish">, "type">>,
  ) {
    if (!stream) return run({});
    await replyWithEventStream<CompatStreamEvent>(
      reply,
      async ({ send, signal }) => ({ type: "finish", ...(await run({ signal, onDelta: (delta) => send({ type: "text-delta", delta }) })) }),
      logError,
    );
    return reply;
  }

  app.post("/api/gemini/chat", async (request, reply) => {
    const body = parseInput(chatRequestSchema, request.body, "body");
    service.check(body);
    return answer(reply, body.stream, (options) => service.chat(body, options));
  });

  app.post("/api/gemini/function-response", async (request, reply) => {
    const body = parseInput(functionResponseRequestSchema, request.body, "body");
    service.check(body);
    return answer(reply, body.stream, (options) => service.functionResponse(body, options));
  });
}
