import { z } from "zod";
import { badRequest } from "../../http/app-error.ts";

/**
 * The backup zip (Export Vector DB): manifest.json, items.jsonl (the tree, with statuses), chunks.jsonl (texts
 * and sources), vectors.jsonl (base64 float32, with the embedder's identity in the manifest), files/<item id>
 * (each uploaded file's original bytes) and one <part>.jsonl per extra part (memories, later). Rows are in
 * ascending id order, which lets a reader check and join them while streaming.
 */
export const BACKUP_FORMAT = "sage-vector-db";
export const BACKUP_VERSION = 2;
/** Version 1 (before original files and statuses were kept) is still read. */
export const READABLE_VERSIONS = [1, 2] as const;

/** Entries besides the original files: the four above, extra parts, and a little room. */
export const MAX_ARCHIVE_ENTRIES = 16;
/** What one backup may hold: the caps bound the memory an import's checks use. */
export const MAX_ITEMS = 1_000_000;
export const MAX_CHUNKS = 4_000_000;
/**
 * An uploaded backup's JSON-lines entries together may expand to this much, by the sizes their headers declare
 * (and no entry yields a byte more while it streams). No ratio: a log of one repeated line deflates 500:1 and is
 * honest (issue 36); what a bomb costs is the bytes it expands to, and that is what is bounded.
 */
export const MAX_EXPANDED_BYTES = 1024 * 1024 * 1024;
/** An uploaded backup's original files are written to disk as they stream; together they may expand to this much. */
export const MAX_FILES_EXPANDED_BYTES = 4 * 1024 * 1024 * 1024;
/** One JSON line (an item with a long note is the largest); a longer one is refused, never built as a string. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export const ENTRY = { manifest: "manifest.json", items: "items.jsonl", chunks: "chunks.jsonl", vectors: "vectors.jsonl" } as const;
export const fileEntryName = (itemId: number) => `files/${itemId}`;
export const FILE_ENTRY = /^files\/([1-9]\d{0,15})$/;

const count = z.number().int().min(0);
export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.union([z.literal(1), z.literal(2)]),
  exported_at: z.string().optional(),
  embedder: z.object({ id: z.string().min(1).max(500), dimensions: z.number().int().positive().max(8192) }).nullable(),
  counts: z.object({
    items: count.max(MAX_ITEMS),
    chunks: count.max(MAX_CHUNKS),
    vectors: count.max(MAX_CHUNKS),
    files: count.max(MAX_ITEMS).optional(),
    /** Rows of each extra part, by part name. */
    parts: z.record(z.string(), count).optional(),
  }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const pages = z.array(z.number().int().positive().max(1_000_000)).max(1_000_000);
export const itemSchema = z.object({
  id,
  parent_id: id.nullable(),
  conversation_id: id.nullable(),
  type: z.enum(["file", "url", "note", "folder"]),
  name: z.string().min(1).max(1000),
  path: z.string().max(10_000),
  description: z.string(),
  content: z.string(),
  url: z.string().nullable(),
  mime_type: z.string().nullable(),
  size: z.number().int().min(0),
  created_at: z.string(),
  // Version 2 and later:
  status: z.enum(["ready", "queued", "processing", "failed", "stored"]).optional(),
  status_reason: z.string().max(10_000).nullable().optional(),
  content_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .optional(),
  /** Pages read by text recognition and pages it gave up on (1-based); absent in backups made before they were kept. */
  ocr_pages: pages.optional(),
  ocr_failed_pages: pages.optional(),
  /** A file SAGE generated: the names of the sources it was made from (issue 52); absent for anything else. */
  made_from: z.array(z.string().max(1000)).max(1000).optional(),
  /** The zip entry holding the original bytes (files/<id>), or null when the export had none. */
  file: z.string().nullable().optional(),
});
export type ItemBackupRow = z.infer<typeof itemSchema>;

export const chunkSchema = z.object({
  id,
  item_id: id,
  position: z.number().int().min(0),
  source: z.string(),
  content: z.string(),
});
export type ChunkBackupRow = z.infer<typeof chunkSchema>;

export const vectorSchema = z.object({ chunk_id: id, vector: z.string() });
export type VectorBackupRow = z.infer<typeof vectorSchema>;

/** Every refusal of a backup: a 400 that names the problem, before anything is changed. */
export const importFailed = (detail: string) => badRequest(`Import Failed: ${detail}`, "import_failed");
