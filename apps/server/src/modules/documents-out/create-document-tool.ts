import { DOCUMENT_TEXTS, createDocumentArgsSchema } from "@sage/contracts/documents-out";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { GeneratedFilesPort } from "../knowledge/knowledge.module.ts";
import { DOCUMENT_MIME_TYPES, documentFileName } from "./write-document.ts";
import { writeDocumentInThread } from "./write-in-thread.ts";
import { citedIn } from "./write-job.ts";

/**
 * createDocument: Markdown written as a Word, PowerPoint, Excel or PDF file, saved in the conversation's knowledge
 * (downloadable and searchable like an upload). Citations [n] of the user's documents become footnotes (a Sources
 * slide in a deck, a Sources sheet in a workbook).
 */
export function createDocumentTool(files: GeneratedFilesPort): AssistantTool {
  return {
    name: "createDocument",
    description:
      "Create a file the user can download: a Word document (docx), a PowerPoint deck (pptx), an Excel workbook (xlsx) or a PDF, from Markdown. Use it when the user asks for a document, memo, deck, slides, spreadsheet or PDF. Keep citations like [1] from your answers: they become footnotes or a Sources slide.",
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
      const bytes = await writeDocumentInThread({ kind: "markdown", format, title, content, citations });
      context.signal.throwIfAborted();
      const name = documentFileName(title, format);
      const description = `${DOCUMENT_TEXTS.formatNames[format]} created by SAGE`;
      const saved = await files.add(context.userId, context.conversationId, { name, mimeType: DOCUMENT_MIME_TYPES[format], bytes, description });
      const document = { fileId: saved.id, name: saved.name, format };
      return { result: { success: true, ...document }, document };
    },
  };
}
