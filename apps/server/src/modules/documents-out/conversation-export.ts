import type { ExportFormat } from "@sage/contracts/documents-out";
import { conversationMarkdown, titleOf, type ExportedConversation } from "./conversation-document.ts";
import { documentFileName, DOCUMENT_MIME_TYPES } from "./write-document.ts";
import { writeDocumentInThread } from "./write-in-thread.ts";

/** The export's file: its bytes, name and type. */
export async function exportConversation(conversation: ExportedConversation, format: ExportFormat) {
  const name = documentFileName(titleOf(conversation), format);
  if (format === "md") return { name, contentType: "text/markdown; charset=utf-8", bytes: Buffer.from(conversationMarkdown(conversation), "utf8") };
  return {
    name,
    contentType: DOCUMENT_MIME_TYPES[format],
    bytes: await writeDocumentInThread({
      kind: "conversation",
      format,
      conversation: { name: conversation.name, messages: [...conversation.messages], timeZone: conversation.timeZone },
    }),
  };
}
