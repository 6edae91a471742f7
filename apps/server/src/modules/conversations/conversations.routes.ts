import type { FastifyInstance } from "fastify";
import { idParamsSchema, messageParamsSchema } from "@sage/contracts/common";
import { appendMessageBodySchema, createConversationBodySchema, messageSearchQuerySchema, updateConversationBodySchema } from "@sage/contracts/conversations";
import { requireUser } from "../../http/session-guard.ts";
import { sendJson } from "../../http/send-json.ts";
import { parseInput } from "../../http/validate.ts";
import type { ConversationsService } from "./conversations.service.ts";

/** Conversations and their messages (a conversation's files are the knowledge module's routes). */
export function registerConversationRoutes(app: FastifyInstance, deps: { service: ConversationsService }) {
  const { service } = deps;
  const idOf = (params: unknown) => parseInput(idParamsSchema, params, "path").id;
  // Lists (conversations, messages) come from the service already serialised: they are cached that way.

  app.get("/api/conversations", async (request, reply) => sendJson(reply, await service.listJson(requireUser(request).id)));

  app.post("/api/conversations", async (request, reply) => {
    const { name } = parseInput(createConversationBodySchema, request.body, "body");
    reply.status(201);
    return service.create(requireUser(request).id, name);
  });

  app.get("/api/conversations/search", async (request) => {
    const { q, limit } = parseInput(messageSearchQuerySchema, request.query, "query");
    return service.searchMessages(requireUser(request).id, q, limit);
  });

  // Deleted conversations stay restorable for 30 days (decision 035).
  app.get("/api/conversations/deleted", async (request) => service.listDeleted(requireUser(request).id));

  app.post("/api/conversations/:id/restore", async (request) => service.restore(requireUser(request).id, idOf(request.params)));

  app.post("/api/conversations/:id/read", async (request) => service.markRead(requireUser(request).id, idOf(request.params)));

  app.get("/api/conversations/:id", async (request) => service.get(requireUser(request).id, idOf(request.params)));

  app.patch("/api/conversations/:id", async (request) => {
    const userId = requireUser(request).id;
    const id = idOf(request.params);
    return service.update(userId, id, parseInput(updateConversationBodySchema, request.body, "body"));
  });

  app.delete("/api/conversations/:id", async (request) => {
    await service.remove(requireUser(request).id, idOf(request.params));
    return { ok: true as const };
  });

  app.get("/api/conversations/:id/messages", async (request, reply) =>
    sendJson(reply, await service.listMessages(requireUser(request).id, idOf(request.params))),
  );

  // Shows the branch the message is on (decision 045); answers the messages as then shown.
  app.post("/api/conversations/:id/messages/:messageId/activate", async (request, reply) => {
    const { id, messageId } = parseInput(messageParamsSchema, request.params, "path");
    return sendJson(reply, await service.activate(requireUser(request).id, id, messageId));
  });

  app.post("/api/conversations/:id/messages", async (request, reply) => {
    const userId = requireUser(request).id;
    const id = idOf(request.params);
    const message = parseInput(appendMessageBodySchema, request.body, "body");
    return sendJson(reply, await service.appendMessage(userId, id, message));
  });
}
