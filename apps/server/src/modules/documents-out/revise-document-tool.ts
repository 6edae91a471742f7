import { DOCUMENT_TEXTS, DRAFT_TEXTS, reviseDocumentArgsSchema } from "@sage/contracts/documents-out";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { DocumentDrafts } from "./document-drafts.ts";

/**
 * reviseDocument: the model's new version of a document it made in this conversation ("make slide 3 shorter"),
 * written to a new file from the same draft. It is refused while the user's own edits are unread, so the model
 * reads them first (readDocumentDraft) and never writes over them.
 */
export function reviseDocumentTool(drafts: DocumentDrafts): AssistantTool {
  return {
    name: "reviseDocument",
    description:
      "Revise a document you created in this conversation (its draft) when the user asks for changes, instead of creating a new one. Give the whole new Markdown, same rules as createDocument. The user may have edited the draft: if you are told to, read it first with readDocumentDraft and revise that text.",
    parameters: {
      type: "object",
      properties: {
        draftId: { type: "integer", description: "The draft to revise (createDocument's draftId); the latest one when left out" },
        title: { type: "string", description: "A new title, when it changes" },
        content: { type: "string", description: "The whole revised Markdown" },
      },
      required: ["content"],
    },
    readOnly: false,
    async run(args, context) {
      const parsed = reviseDocumentArgsSchema.safeParse(args);
      if (!parsed.success) return { result: { success: false, error: parsed.error.issues[0]?.message ?? DOCUMENT_TEXTS.failed } };
      const row = await drafts.inConversation(context.userId, context.conversationId, parsed.data.draftId);
      if (!row) return { result: { success: false, error: DRAFT_TEXTS.noDraft } };
      context.signal.throwIfAborted();
      const revised = await drafts.revise(row, parsed.data, context.citation);
      if ("refusal" in revised) return { result: { success: false, error: revised.refusal } };
      return { result: { success: true, ...revised.document }, document: revised.document };
    },
  };
}

/** readDocumentDraft: the draft's current text, with the user's edits (read-only). */
export function readDocumentDraftTool(drafts: DocumentDrafts): AssistantTool {
  return {
    name: "readDocumentDraft",
    description: "Read the current text of a document's draft in this conversation, including the user's own edits, before revising it.",
    parameters: {
      type: "object",
      properties: { draftId: { type: "integer", description: "The draft (createDocument's draftId); the latest one when left out" } },
    },
    readOnly: true,
    async run(args, context) {
      const id = Number.isInteger(args.draftId) ? (args.draftId as number) : undefined;
      const row = await drafts.inConversation(context.userId, context.conversationId, id);
      if (!row) return { result: { success: false, error: DRAFT_TEXTS.noDraft } };
      await drafts.readByModel(row);
      return { result: { success: true, draftId: row.id, format: row.format, title: row.title, content: row.content } };
    },
  };
}
