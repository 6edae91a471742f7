import { z } from "zod";
import { userIdField } from "./common.ts";

export const KNOWLEDGE_ITEM_TYPES = ["file", "url", "note", "folder"] as const;
export const KNOWLEDGE_ITEM_STATUSES = ["ready", "queued", "processing", "failed", "stored"] as const;

/** Upload extensions the server converts, by kind (checked case-insensitively on both sides). Decision 009. */
export const UPLOAD_EXTENSION_GROUPS = [
  ["documents", ["pdf", "docx", "doc", "odt", "rtf", "txt", "md", "html", "htm"]],
  ["slides", ["pptx", "odp"]],
  ["spreadsheets", ["xlsx", "xls", "ods", "csv"]],
  ["mail and calendars", ["eml", "mbox", "ics"]],
  ["images", ["png", "jpg", "jpeg", "tif", "tiff", "webp"]],
] as const;
/** Extensions the server converts into an item of their own. */
export const SUPPORTED_UPLOAD_EXTENSIONS = UPLOAD_EXTENSION_GROUPS.flatMap(([, extensions]) => extensions);
/** Archives are unpacked into a folder, each supported entry becoming its own item (decision 016). */
export const ARCHIVE_UPLOAD_EXTENSIONS = ["zip"] as const;
/** Everything an upload may be: a document of a supported type, or an archive of them. */
export const ACCEPTED_UPLOAD_EXTENSIONS = [...SUPPORTED_UPLOAD_EXTENSIONS, ...ARCHIVE_UPLOAD_EXTENSIONS];
export const UNSUPPORTED_FILE_TYPE_TITLE = "Unsupported File Type";
const uploadKinds = [...UPLOAD_EXTENSION_GROUPS, ["archives", ARCHIVE_UPLOAD_EXTENSIONS] as const].map(
  ([kind, extensions]) => `${kind} (${extensions.map((extension) => `.${extension}`).join(", ")})`,
);
/** Built from the groups, so it always lists every accepted extension. */
export const UNSUPPORTED_FILE_TYPE_MESSAGE = `Please upload only ${uploadKinds.slice(0, -1).join(", ")} or ${uploadKinds.at(-1)}.`;
export const MOVE_INTO_ITSELF_MESSAGE = "A folder cannot be moved into itself or one of its subfolders";

/** A knowledge entry as the API returns it; conversationId 0 is the system knowledge base, parentId 0 the root. */
export interface KnowledgeItem {
  id: number;
  name: string;
  type: (typeof KNOWLEDGE_ITEM_TYPES)[number];
  path: string;
  description: string;
  content: string;
  url: string | null;
  parentId: number;
  userId: number;
  conversationId: number;
  size: number;
  status: (typeof KNOWLEDGE_ITEM_STATUSES)[number];
  statusReason: string | null;
  chunkCount: number;
  /** Pages (1-based) whose text came from text recognition; an image is page 1. */
  ocrPages?: number[];
  /** Pages text recognition gave up on (time or memory limit): their text is missing. */
  ocrFailedPages?: number[];
  createdAt: string;
  items?: KnowledgeItem[];
}

export const knowledgeItemSchema: z.ZodType<KnowledgeItem> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    type: z.enum(KNOWLEDGE_ITEM_TYPES),
    path: z.string(),
    description: z.string(),
    content: z.string(),
    url: z.string().nullable(),
    parentId: z.number().int(),
    userId: z.number().int(),
    conversationId: z.number().int(),
    size: z.number(),
    status: z.enum(KNOWLEDGE_ITEM_STATUSES),
    statusReason: z.string().nullable(),
    chunkCount: z.number().int(),
    ocrPages: z.array(z.number().int()).optional(),
    ocrFailedPages: z.array(z.number().int()).optional(),
    createdAt: z.string(),
    items: z.array(knowledgeItemSchema).optional(),
  }),
);
export const knowledgeItemListSchema = z.array(knowledgeItemSchema);
/** GET /api/files/{id}/text: an item's text as it was read; `source` is 'page 3', a sheet, a slide, a heading or ''. */
export const itemTextResponseSchema = z.object({ sections: z.array(z.object({ source: z.string(), text: z.string() })) });
export type ItemTextResponse = z.infer<typeof itemTextResponseSchema>;

const optionalId = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Form fields and JSON both send ids as numbers or numeric strings; "", null and "null" mean none (0). */
const idOrNone = z.preprocess(
  (value) => (value === "" || value === null || value === "null" || value === "undefined" ? undefined : value),
  optionalId.optional(),
);

export const listFilesQuerySchema = z.object({
  userId: userIdField,
  conversationId: idOrNone,
  parentId: idOrNone,
});

export const listFoldersQuerySchema = z.object({
  userId: userIdField,
});

/** `inline=1` asks for the file to open in the browser's own viewer (Open) instead of being saved (Download). */
export const fileDownloadQuerySchema = z.object({
  inline: z.enum(["0", "1"]).optional(),
});

/**
 * Files a browser shows by itself, safely: PDFs in its viewer, pictures, and plain text (served as text/plain, so an
 * uploaded page never runs on SAGE's origin). Others (Office files, TIFF, mail) are only downloaded.
 */
const OPENS_IN_BROWSER = new Set(["pdf", "png", "jpg", "jpeg", "webp", "txt", "md", "csv", "html", "htm"]);

/** Whether the preview offers Open for this file name (GET /api/files/{id}/download?inline=1). */
export function opensInBrowser(filename: string): boolean {
  const extension = /\.([^.]+)$/.exec(filename.trim())?.[1]?.toLowerCase();
  return extension !== undefined && OPENS_IN_BROWSER.has(extension);
}

/** Paths join names with "/", so a name may not contain one. */
export const NAME_SLASH_MESSAGE = "Name cannot contain '/'";
const noSlash = (value: string) => !value.includes("/");
/** A name is one line of text: no NUL, line breaks or other control characters (they break paths, lists and headers). */
export const NAME_CONTROL_MESSAGE = "Name cannot contain line breaks or control characters";
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const noControl = (value: string) => !CONTROL_CHARACTERS.test(value);
/**
 * Characters that change how a name is shown without being seen: bidirectional overrides, embeddings, isolates and
 * marks ("minutes\u202Ecod.txt" shows as "minutestxt.doc"), zero-width spaces, word joiners, a BOM, soft hyphens.
 * The zero-width joiner and non-joiner (U+200D, U+200C) are not among them: emoji and several scripts need them.
 */
const INVISIBLE_FORMATTING = /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
/** A name as it is seen: the invisible formatting characters above removed. */
export const withoutInvisibleFormatting = (text: string) => text.replace(INVISIBLE_FORMATTING, "");
/** A typed name keeps what the user sees of it. */
const seen = <T extends z.ZodType<string>>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" ? withoutInvisibleFormatting(value) : value), schema);
/** A link's or note's own name (blank: derived from the URL or the text). */
const entryName = seen(z.string().max(255).refine(noControl, NAME_CONTROL_MESSAGE));
const name = seen(
  z.string().trim().min(1, "Name is required").max(255, "Name is too long").refine(noSlash, NAME_SLASH_MESSAGE).refine(noControl, NAME_CONTROL_MESSAGE),
);

export const createFolderRequestSchema = z.object({
  name,
  type: z.literal("folder").optional(),
  userId: userIdField,
  conversationId: idOrNone,
  parentId: idOrNone,
  path: z.string().max(4000).optional(),
});
export type CreateFolderRequest = z.infer<typeof createFolderRequestSchema>;

export const createFileRequestSchema = z.object({
  name: entryName.optional(),
  type: z.enum(["url", "note"]),
  userId: userIdField,
  conversationId: idOrNone,
  parentId: idOrNone,
  path: z.string().max(4000).optional(),
  content: z.string().max(1_000_000).optional(),
  description: z.string().max(10_000).optional(),
  url: z.string().max(4000).optional(),
});
export type CreateFileRequest = z.infer<typeof createFileRequestSchema>;

export const updateFileRequestSchema = z
  .object({
    name: seen(z.string().max(255).refine(noSlash, NAME_SLASH_MESSAGE).refine(noControl, NAME_CONTROL_MESSAGE)).optional(),
    parentId: idOrNone,
    description: z.string().max(10_000).optional(),
    content: z.string().max(1_000_000).optional(),
    userId: userIdField,
  })
  .refine((body) => body.name !== undefined || body.parentId !== undefined || body.description !== undefined || body.content !== undefined, {
    message: "Nothing to change: send name, parentId, description or content",
  });
export type UpdateFileRequest = z.infer<typeof updateFileRequestSchema>;

export const RELATIVE_PATH_MESSAGE = "relativePath must be folder names and a file name joined by '/', without '.', '..' or empty parts";
export const MAX_RELATIVE_PATH_DEPTH = 32;
/** A file's place inside an uploaded folder ('Board/2024/deck.pptx'): its folders become knowledge-base folders. */
export const relativePathSchema = z
  .string()
  .max(4000)
  .refine((value) => {
    const parts = value.split("/");
    // eslint-disable-next-line no-control-regex
    const badPart = (part: string) => part.trim() === "" || part === "." || part === ".." || part.length > 255 || /[\\\u0000-\u001f\u007f]/.test(part);
    return parts.length <= MAX_RELATIVE_PATH_DEPTH && !parts.some(badPart);
  }, RELATIVE_PATH_MESSAGE);

/** Multipart text fields of POST /api/upload (the file part is read separately). */
export const uploadFieldsSchema = z.object({
  userId: userIdField,
  conversationId: idOrNone,
  parentId: idOrNone,
  path: z.string().max(4000).optional(),
  description: z.string().max(10_000).optional(),
  /** Set for a file of an uploaded folder; "" means none. */
  relativePath: z.preprocess((value) => (value === "" ? undefined : value), relativePathSchema.optional()),
});

/** What unpacking a .zip upload did: the folder it became and its entries. */
export const archiveResultSchema = z.object({
  folderId: z.number().int(),
  added: z.number().int(),
  duplicates: z.number().int(),
  /** Entries of types SAGE does not read, left out. */
  skipped: z.array(z.string()),
});
export type ArchiveResult = z.infer<typeof archiveResultSchema>;

export const uploadResponseSchema = z.object({
  status: z.enum(["success", "processing_in_background", "stored", "duplicate"]),
  file: knowledgeItemSchema,
  chunks_processed: z.number().int(),
  processingResult: z.object({ status: z.string(), error: z.string().optional() }),
  error: z.string().optional(),
  archive: archiveResultSchema.optional(),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const processUrlRequestSchema = z.object({
  url: z.string().trim().min(1, "URL is required").max(4000),
  userId: userIdField,
  conversationId: idOrNone,
  parentId: idOrNone,
  description: z.string().max(10_000).optional(),
  name: entryName.optional(),
  path: z.string().max(4000).optional(),
});
export type ProcessUrlRequest = z.infer<typeof processUrlRequestSchema>;

export const urlInfoSchema = z.object({
  name: z.string(),
  url: z.string(),
  user_id: z.number().int(),
  conversation_id: z.number().int(),
  parent_id: z.number().int(),
  file_id: z.number().int(),
});

export const processUrlResponseSchema = z.object({
  status: z.enum(["success", "processing_in_background", "failed"]),
  url_info: urlInfoSchema.optional(),
  chunks_processed: z.number().int(),
  error: z.string().optional(),
});
export type ProcessUrlResponse = z.infer<typeof processUrlResponseSchema>;

export const processNoteRequestSchema = z.object({
  fileId: z.coerce.number().int().positive().optional(),
  name: entryName.optional(),
  type: z.literal("note").optional(),
  userId: userIdField,
  conversationId: idOrNone,
  parentId: idOrNone,
  path: z.string().max(4000).optional(),
  content: z.string().max(1_000_000).optional(),
  description: z.string().max(10_000).optional(),
});
export type ProcessNoteRequest = z.infer<typeof processNoteRequestSchema>;

export const processNoteResponseSchema = z.object({
  status: z.enum(["success"]),
  file: knowledgeItemSchema,
  chunks_processed: z.number().int(),
  warning: z.string().optional(),
});

export const routesTestResponseSchema = z.object({ status: z.literal("success") });

/** A link's entry name: host plus last path segment without extension, or the host, or 'website-link'. */
export function nameFromUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.hostname) return "website-link";
    const segments = url.pathname.split("/").filter(Boolean);
    const last = segments.at(-1);
    if (!last) return url.hostname;
    // An encoded NUL, line break or "/" must not reach a name (the name rules above).
    const decoded = withoutInvisibleFormatting(decodeURIComponent(last)).replace(new RegExp(CONTROL_CHARACTERS.source, "g"), " ").replace(/\//g, "-").trim();
    const withoutExtension = decoded.replace(/\.[^.]+$/, "");
    return withoutExtension ? `${url.hostname} - ${withoutExtension}` : url.hostname;
  } catch {
    return "website-link";
  }
}

/** A note's entry name: at most the first three words, cut to 30 characters plus an ellipsis. */
export function nameFromNote(content: string): string {
  const allWords = withoutInvisibleFormatting(content).trim().split(/\s+/).filter(Boolean);
  const words = allWords.slice(0, 3).join(" ");
  if (!words) return "Note";
  const cut = words.slice(0, 30);
  return cut.length < words.length || allWords.length > 3 ? `${cut}...` : cut;
}
