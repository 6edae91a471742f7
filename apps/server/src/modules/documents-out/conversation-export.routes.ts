import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { conversationExportQuerySchema } from "@sage/contracts/documents-out";
import { contentDisposition } from "../../http/content-disposition.ts";
import { mediaResponse, ownerFirst, type ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { ConversationReaderPort } from "../conversations/conversations.module.ts";
import { exportConversation } from "./conversation-export.ts";
import { DOCUMENT_MIME_TYPES } from "./write-document.ts";

/** GET /api/conversations/{id}/export?format=md|docx|pdf: the whole conversation as a file, its citations as footnotes. */
export function registerConversationExportRoutes(
  app: FastifyInstance,
  deps: { conversations: ConversationReaderPort; timeZone(userId: number): Promise<string> },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/conversations/:id/export",
    {
      // Whose it is comes first: another user's conversation is not found, whatever the query says.
      preValidation: ownerFirst(deps.conversations.conversation),
      schema: {
        summary: "The whole conversation as a file (Markdown, Word or PDF), its citations as footnotes",
        params: idParamsSchema,
        querystring: conversationExportQuerySchema,
        response: {
          200: mediaResponse(["text/markdown", DOCUMENT_MIME_TYPES.docx, DOCUMENT_MIME_TYPES.pdf], "The conversation's file, named after the conversation"),
        },
      },
    },
    async (request, reply) => {
      const userId = requireUser(request).id;
      const { id } = request.params;
      const conversation = await deps.conversations.conversation(userId, id);
      const messages = await deps.conversations.messages(userId, id);
      const file = await exportConversation({ name: conversation.name, messages, timeZone: await deps.timeZone(userId) }, request.query.format);
      return reply
        .header("content-type", file.contentType)
        .header("content-disposition", contentDisposition(file.name))
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-store")
        .send(file.bytes);
    },
  );
}
