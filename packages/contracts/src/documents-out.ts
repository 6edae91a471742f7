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

/**
 * The `document-created` turn event: a file createDocument (or reviseDocument) saved in the conversation's
 * knowledge, and the draft it was written from (the canvas), when there is one.
 */
export const documentCreatedSchema = z.object({
  fileId: z.number().int(),
  name: z.string(),
  format: z.enum(DOCUMENT_FORMATS),
  draftId: z.number().int().optional(),
});
export type DocumentCreated = z.infer<typeof documentCreatedSchema>;

const draftContent = createDocumentArgsSchema.shape.content;
const draftTitle = createDocumentArgsSchema.shape.title;

/** reviseDocument's arguments: the draft (the conversation's latest when left out) and its whole new Markdown. */
export const reviseDocumentArgsSchema = z.object({
  draftId: z.coerce.number({ message: "draftId must be a draft's number" }).int().positive().optional(),
  title: draftTitle.optional(),
  content: draftContent,
});

/** A document's draft, the Markdown a file was written from, editable in the canvas (decision 047). */
export const documentDraftSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  format: z.enum(DOCUMENT_FORMATS),
  title: z.string(),
  content: z.string(),
  /** Grows with every save, by the user or the model. */
  version: z.number().int(),
  /** The file last written from it, and whether the text changed since (Export writes it again). */
  fileId: z.number().int().nullable(),
  fileName: z.string().nullable(),
  exported: z.boolean(),
  updatedAt: z.string(),
});
export type DocumentDraft = z.infer<typeof documentDraftSchema>;

/** PUT /api/document-drafts/{id}: the user's edit; `version` is the one the editor started from. */
export const saveDraftRequestSchema = z.object({
  title: draftTitle,
  content: draftContent,
  version: z.number({ message: "version is required" }).int().nonnegative(),
});
export type SaveDraftRequest = z.infer<typeof saveDraftRequestSchema>;

/** POST /api/document-drafts/{id}/export answers the draft and the file written. */
export const draftExportSchema = z.object({ draft: documentDraftSchema, document: documentCreatedSchema });
export type DraftExport = z.infer<typeof draftExportSchema>;

/** What the canvas and the draft tools say. */
export const DRAFT_TEXTS = {
  open: "Edit draft",
  panelTitle: "Draft",
  titleLabel: "Title",
  contentLabel: "Text (Markdown)",
  save: "Save",
  saved: "Saved",
  unsaved: "Unsaved changes",
  export: "Export",
  exported: "Exported",
  edit: "Edit",
  preview: "Preview",
  notFound: "Draft not found",
  /** A save whose editor started from an older version (the model revised the draft meanwhile). */
  changedMeanwhile: "This draft was changed meanwhile (SAGE revised it). Copy your text, close the draft and open it again.",
  /** What the model hears when it would overwrite edits it has not read. */
  readFirst: "The user has edited this draft since you last saw it. Read it with readDocumentDraft, then revise that text.",
  noDraft: "There is no draft in this conversation to revise. Create one with createDocument.",
} as const;

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
