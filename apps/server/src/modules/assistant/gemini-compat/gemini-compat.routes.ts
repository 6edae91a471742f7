import type { FastifyInstance, FastifyReply } from "fastify";
import {
  chatRequestSchema,
  chatResponseSchema,
  functionResponseRequestSchema,
  functionResponseResponseSchema,
  type CompatStreamEvent,
  type CompatStreamEventOf,
} from "@sage/contracts/gemini-compat";
import type { z } from "zod";
import { replyWithEventStream } from "../../../http/event-stream.ts";
import { mediaResponse, type ZodTypeProvider } from "../../../http/route-contracts.ts";
import type { CompatCallOptions, GeminiCompatService } from "./gemini-compat.service.ts";

/** JSON by default; server-sent events (`text-delta`s, then `finish` or `error`) with `stream: true`. */
const jsonOrEvents = (schema: z.ZodType, description: string) => ({
  200: {
    description,
    content: {
      "application/json": { schema },
      "text/event-stream": mediaResponse("text/event-stream", description).content["text/event-stream"]!,
    },
  },
});

/**
 * POST /api/gemini/chat and /api/gemini/function-response, as the spec lists them (decision 024): JSON by
 * default, server-sent events with `stream: true`. Input and model are checked before streaming starts.
 */
export function registerGeminiCompatRoutes(app: FastifyInstance, deps: { service: GeminiCompatService }) {
  const { service } = deps;
  const logError = (error: unknown) => app.log.error({ err: error }, "assistant stream failed");
  const api = app.withTypeProvider<ZodTypeProvider>();

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

  api.post(
    "/api/gemini/chat",
    {
      schema: {
        summary: "One stateless chat call with history and tools (the spec's Gemini-compatible API)",
        body: chatRequestSchema,
        response: jsonOrEvents(chatResponseSchema, "The model's answer and the functions it calls"),
      },
    },
    async (request, reply) => {
      service.check(request.body);
      return answer(reply, request.body.stream, (options) => service.chat(request.body, options));
    },
  );

  api.post(
    "/api/gemini/function-response",
    {
      schema: {
        summary: "Give the model a function's result and get its answer (the spec's Gemini-compatible API)",
        body: functionResponseRequestSchema,
        response: jsonOrEvents(functionResponseResponseSchema, "The model's answer"),
      },
    },
    async (request, reply) => {
      service.check(request.body);
      return answer(reply, request.body.stream, (options) => service.functionResponse(request.body, options));
    },
  );
}
