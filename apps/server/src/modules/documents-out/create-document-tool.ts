import { DOCUMENT_TEXTS, createDocumentArgsSchema } from "@sage/contracts/documents-out";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { DocumentDrafts } from "./document-drafts.ts";
import { citedIn } from "./write-job.ts";

/**
 * createDocument: Markdown written as a Word, PowerPoint, Excel or PDF file, saved in the conversation's knowledge
 * (downloadable and searchable like an upload). Citations [n] of the user's documents become footnotes (a Sources
 * slide in a deck, a Sources sheet in a workbook). The Markdown stays as a draft the user can edit (the canvas).
 */
export function createDocumentTool(drafts: DocumentDrafts): AssistantTool {
  return {
    name: "createDocument",
    description:
      "Create a file the user can download: a Word document (docx), a PowerPoint deck (pptx), an Excel workbook (xlsx) or a PDF, from Markdown. Use it when the user asks for a document, memo, deck, slides, spreadsheet or PDF. Keep citations like [1] from your answers: they become footnotes or a Sources slide. The result's draftId names its draft: to change the document later, use reviseDocument instead of creating a new one.",
    parameters: {
      type: "object",
      properties: {
        format: { type: "string", enum: ["docx", "pptx", "xlsx", "pdf"], description: "The file's format" },
        title: { type: "string", description: "The document's title, also its file name" },
        content: {
          type: "string",
          description:
            "Markdown: headings, lists, tables. For pptx each '## ' heading starts a slide, and a paragraph starting 'Notes:' under it holds the speaker notes. For xlsx each table becomes a sheet named after the heading above it.",
        },
      },
      required: ["format", "title", "content"],
    },
    readOnly: false,
    async run(args, context) {
      const parsed = createDocumentArgsSchema.safeParse(args);
      if (!parsed.success) return { result: { success: false, error: parsed.error.issues[0]?.message ?? DOCUMENT_TEXTS.failed } };
      const { format, title, content } = parsed.data;
      const citations = citedIn(content, context.citation);
      context.signal.throwIfAborted();
      const { document } = await drafts.create(context.userId, context.conversationId, { format, title, content, citations });
      return { result: { success: true, ...document }, document };
    },
  };
}
