import type { FastifyInstance } from "fastify";
import { editMessageRequestSchema, regenerateRequestSchema, turnRequestSchema, type TurnEvent } from "@sage/contracts/chat-turn";
import { idParamsSchema, messageParamsSchema } from "@sage/contracts/common";
import { replyWithEventStream } from "../../http/event-stream.ts";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { ChatTurnService } from "./chat-turn.service.ts";

/**
 * POST /api/conversations/{id}/turn, and .../messages/{messageId}/edit and /regenerate (a turn on a new branch,
 * decision 045): input, conversation, message and model are checked before the stream starts.
 */
export function registerChatTurnRoutes(app: FastifyInstance, deps: { chatTurns: ChatTurnService }) {
  const logError = (error: unknown) => app.log.error({ err: error }, "chat turn failed");
  app.post("/api/conversations/:id/turn", async (request, reply) => {
    const user = requireUser(request);
    const { id } = parseInput(idParamsSchema, request.params, "path");
    const body = parseInput(turnRequestSchema, request.body, "body");
    const turn = await deps.chatTurns.prepare(user.id, id, body);
    await replyWithEventStream<TurnEvent>(reply, (events) => deps.chatTurns.run(turn, events), logError);
    return reply;
  });
  app.post("/api/conversations/:id/messages/:messageId/edit", async (request, reply) => {
    const user = requireUser(request);
    const { id, messageId } = parseInput(messageParamsSchema, request.params, "path");
    const body = parseInput(editMessageRequestSchema, request.body, "body");
    const turn = await deps.chatTurns.prepareEdit(user.id, id, messageId, body);
    await replyWithEventStream<TurnEvent>(reply, (events) => deps.chatTurns.run(turn, events), logError);
    return reply;
  });
  app.post("/api/conversations/:id/messages/:messageId/regenerate", async (request, reply) => {
    const user = requireUser(request);
    const { id, messageId } = parseInput(messageParamsSchema, request.params, "path");
    const body = parseInput(regenerateRequestSchema, request.body ?? {}, "body");
    const turn = await deps.chatTurns.prepareRegenerate(user.id, id, messageId, body);
    await replyWithEventStream<TurnEvent>(reply, (events) => deps.chatTurns.run(turn, events), logError);
    return reply;
  });
}
