import type { FastifyInstance } from "fastify";
import { okResponseSchema } from "@sage/contracts/auth";
import { idParamsSchema, messageParamsSchema } from "@sage/contracts/common";
import {
  appendMessageBodySchema,
  conversationListSchema,
  conversationSchema,
  createConversationBodySchema,
  deletedConversationListSchema,
  messageListSchema,
  messageSearchQuerySchema,
  messageSearchResponseSchema,
  updateConversationBodySchema,
} from "@sage/contracts/conversations";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import { sendJson } from "../../http/send-json.ts";
import type { ConversationsService } from "./conversations.service.ts";

/** Conversations and their messages (a conversation's files are the knowledge module's routes). */
export function registerConversationRoutes(app: FastifyInstance, deps: { service: ConversationsService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: idParamsSchema };
  // Lists (conversations, messages) come from the service already serialised: they are cached that way.

  api.get(
    "/api/conversations",
    { schema: { summary: "The user's conversations, newest first", response: { 200: conversationListSchema } } },
    async (request, reply) => sendJson(reply, await service.listJson(requireUser(request).id)),
  );

  api.post(
    "/api/conversations",
    { schema: { summary: "Start a conversation", body: createConversationBodySchema, response: { 201: conversationSchema } } },
    async (request, reply) => reply.status(201).send(await service.create(requireUser(request).id, request.body.name)),
  );

  api.get(
    "/api/conversations/search",
    { schema: { summary: "Search the user's messages", querystring: messageSearchQuerySchema, response: { 200: messageSearchResponseSchema } } },
    async (request) => service.searchMessages(requireUser(request).id, request.query.q, request.query.limit),
  );

  // Deleted conversations stay restorable for 30 days (decision 035).
  api.get(
    "/api/conversations/deleted",
    { schema: { summary: "Deleted conversations, restorable for 30 days", response: { 200: deletedConversationListSchema } } },
    async (request) => service.listDeleted(requireUser(request).id),
  );

  api.post(
    "/api/conversations/:id/restore",
    { schema: { summary: "Restore a deleted conversation", ...byId, response: { 200: conversationSchema } } },
    async (request) => service.restore(requireUser(request).id, request.params.id),
  );

  api.post("/api/conversations/:id/read", { schema: { summary: "Mark a conversation read", ...byId, response: { 200: okResponseSchema } } }, async (request) =>
    service.markRead(requireUser(request).id, request.params.id),
  );

  api.get("/api/conversations/:id", { schema: { summary: "One conversation", ...byId, response: { 200: conversationSchema } } }, async (request) =>
    service.get(requireUser(request).id, request.params.id),
  );

  api.patch(
    "/api/conversations/:id",
    { schema: { summary: "Rename, pin or set a conversation's model", ...byId, body: updateConversationBodySchema, response: { 200: conversationSchema } } },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body),
  );

  api.delete(
    "/api/conversations/:id",
    { schema: { summary: "Delete a conversation (restorable for 30 days)", ...byId, response: { 200: okResponseSchema } } },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  api.get(
    "/api/conversations/:id/messages",
    { schema: { summary: "A conversation's messages, on the branches shown", ...byId, response: { 200: messageListSchema } } },
    async (request, reply) => sendJson(reply, await service.listMessages(requireUser(request).id, request.params.id)),
  );

  // Shows the branch the message is on (decision 045); answers the messages as then shown.
  api.post(
    "/api/conversations/:id/messages/:messageId/activate",
    { schema: { summary: "Show the branch a message is on", params: messageParamsSchema, response: { 200: messageListSchema } } },
    async (request, reply) => sendJson(reply, await service.activate(requireUser(request).id, request.params.id, request.params.messageId)),
  );

  api.post(
    "/api/conversations/:id/messages",
    { schema: { summary: "Append a message without a turn", ...byId, body: appendMessageBodySchema, response: { 200: messageListSchema } } },
    async (request, reply) => sendJson(reply, await service.appendMessage(requireUser(request).id, request.params.id, request.body)),
  );
}
