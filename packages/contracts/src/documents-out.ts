import { z } from "zod";

/** The files SAGE writes (createDocument) and the formats a conversation exports to. */
export const DOCUMENT_FORMATS = ["docx", "pptx", "xlsx", "pdf"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
export const EXPORT_FORMATS = ["md", "docx", "pdf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The longest Markdown one document may be made from (a long report is about 60,000 characters). */
export const MAX_DOCUMENT_CONTENT = 200_000;
export const MAX_DOCUMENT_TITLE = 200;

/** createDocument's arguments, as the model sends them. */
export const createDocumentArgsSchema = z.object({
  format: z.enum(DOCUMENT_FORMATS, { message: "format must be one of docx, pptx, xlsx or pdf" }),
  title: z
    .string({ message: "A title is required" })
    .trim()
    .min(1, "A title is required")
    .max(MAX_DOCUMENT_TITLE, `The title must be at most ${MAX_DOCUMENT_TITLE} characters`),
  content: z
    .string({ message: "The content is required" })
    .refine((value) => value.trim() !== "", "The content is required")
    .refine((value) => value.length <= MAX_DOCUMENT_CONTENT, `The content must be at most ${MAX_DOCUMENT_CONTENT} characters`),
});
export type CreateDocumentArgs = z.infer<typeof createDocumentArgsSchema>;

/** The `document-created` turn event: a file createDocument saved in the conversation's knowledge. */
export const documentCreatedSchema = z.object({
  fileId: z.number().int(),
  name: z.string(),
  format: z.enum(DOCUMENT_FORMATS),
});
export type DocumentCreated = z.infer<typeof documentCreatedSchema>;

/** GET /api/conversations/{id}/export?format= */
export const conversationExportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { message: "format must be md, docx or pdf" }),
});

/** What the chat says about documents, and the names of the formats in plain words. */
export const DOCUMENT_TEXTS = {
  download: "Download",
  export: "Export",
  /** Heading of the last slide of a deck whose content cited the user's documents. */
  sourcesSlide: "Sources",
  sourcesSheet: "Sources",
  formatNames: { docx: "Word document", pptx: "PowerPoint deck", xlsx: "Excel workbook", pdf: "PDF", md: "Markdown" } as Record<
    DocumentFormat | ExportFormat,
    string
  >,
  /** The model hears this when the file could not be made. */
  failed: "The document could not be created",
} as const;
