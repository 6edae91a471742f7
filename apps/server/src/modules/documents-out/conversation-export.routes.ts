import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { conversationExportQuerySchema } from "@sage/contracts/documents-out";
import { contentDisposition } from "../../http/content-disposition.ts";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { ConversationReaderPort } from "../conversations/conversations.module.ts";
import { exportConversation } from "./conversation-export.ts";

/** GET /api/conversations/{id}/export?format=md|docx|pdf: the whole conversation as a file, its citations as footnotes. */
export function registerConversationExportRoutes(
  app: FastifyInstance,
  deps: { conversations: ConversationReaderPort; timeZone(userId: number): Promise<string> },
) {
  app.get("/api/conversations/:id/export", async (request, reply) => {
    const userId = requireUser(request).id;
    const { id } = parseInput(idParamsSchema, request.params, "path");
    // Whose it is comes first: another user's conversation is not found, whatever the query says.
    const conversation = await deps.conversations.conversation(userId, id);
    const { format } = parseInput(conversationExportQuerySchema, request.query, "query");
    const messages = await deps.conversations.messages(userId, id);
    const file = await exportConversation({ name: conversation.name, messages, timeZone: await deps.timeZone(userId) }, format);
    return reply
      .header("content-type", file.contentType)
      .header("content-disposition", contentDisposition(file.name))
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "private, no-store")
      .send(file.bytes);
  });
}
