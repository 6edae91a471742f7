import type { FastifyInstance, FastifyReply } from "fastify";
import { editMessageRequestSchema, regenerateRequestSchema, turnRequestSchema, type TurnEvent } from "@sage/contracts/chat-turn";
import { idParamsSchema, messageParamsSchema } from "@sage/contracts/common";
import { replyWithEventStream } from "../../http/event-stream.ts";
import { mediaResponse, type ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { ChatTurnService, PreparedTurn } from "./chat-turn.service.ts";

/** A turn answers its events as server-sent events (turnEventSchema in @sage/contracts/chat-turn). */
const turnEvents = { 200: mediaResponse("text/event-stream", "The turn's events, as server-sent events, the last one `finish` or `error`") };

/**
 * POST /api/conversations/{id}/turn, and .../messages/{messageId}/edit and /regenerate (a turn on a new branch,
 * decision 045): input, conversation, message and model are checked before the stream starts.
 */
export function registerChatTurnRoutes(app: FastifyInstance, deps: { chatTurns: ChatTurnService }) {
  const logError = (error: unknown) => app.log.error({ err: error }, "chat turn failed");
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** Runs a prepared turn (a message, an edit, a regeneration), streaming its events. */
  const stream = async (reply: FastifyReply, turn: PreparedTurn) => {
    await replyWithEventStream<TurnEvent>(reply, (events) => deps.chatTurns.run(turn, events), logError);
    return reply;
  };

  api.post(
    "/api/conversations/:id/turn",
    { schema: { summary: "Send a message: one whole assistant turn, streamed", params: idParamsSchema, body: turnRequestSchema, response: turnEvents } },
    async (request, reply) => {
      return stream(reply, await deps.chatTurns.prepare(requireUser(request).id, request.params.id, request.body));
    },
  );

  api.post(
    "/api/conversations/:id/messages/:messageId/edit",
    {
      schema: {
        summary: "Edit a message of the user's: a turn on a new branch, streamed",
        params: messageParamsSchema,
        body: editMessageRequestSchema,
        response: turnEvents,
      },
    },
    async (request, reply) => {
      const { id, messageId } = request.params;
      return stream(reply, await deps.chatTurns.prepareEdit(requireUser(request).id, id, messageId, request.body));
    },
  );

  api.post(
    "/api/conversations/:id/messages/:messageId/regenerate",
    {
      schema: {
        summary: "Answer a message again: a turn on a new branch, streamed",
        params: messageParamsSchema,
        body: regenerateRequestSchema,
        response: turnEvents,
      },
    },
    async (request, reply) => {
      const { id, messageId } = request.params;
      return stream(reply, await deps.chatTurns.prepareRegenerate(requireUser(request).id, id, messageId, request.body));
    },
  );
}
