import yauzl from "yauzl";
import { memoryContentRequestSchema } from "@sage/contracts/memories";
import { z } from "zod";
import { badRequest } from "../../http/app-error.ts";
import { BACKUP_FORMAT, BACKUP_VERSION } from "./export-backup.ts";

/** Zip-bomb guards: a backup has four entries; its expanded size is bounded well above any honest 100 MB zip. */
export const MAX_ARCHIVE_ENTRIES = 16;
export const MAX_EXPANDED_BYTES = 1024 * 1024 * 1024;
/** Honest backups (JSON text, base64 vectors) deflate by well under 20x; a bomb by up to ~1000x. */
export const MAX_COMPRESSION_RATIO = 100;
const RATIO_CHECK_FROM_BYTES = 1024 * 1024;
const KNOWN_ENTRIES = ["manifest.json", "items.jsonl", "chunks.jsonl", "vectors.jsonl", "memories.jsonl"] as const;

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  embedder: z.object({ id: z.string().min(1), dimensions: z.number().int().positive().max(8192) }).nullable(),
  counts: z.object({ items: z.number().int().min(0), chunks: z.number().int().min(0), vectors: z.number().int().min(0) }),
});
const itemSchema = z.object({
  id: z.number().int().positive(),
  parent_id: z.number().int().positive().nullable(),
  conversation_id: z.number().int().positive().nullable(),
  type: z.enum(["file", "url", "note", "folder"]),
  name: z.string().min(1).max(1000),
  path: z.string().max(10_000),
  description: z.string(),
  content: z.string(),
  url: z.string().nullable(),
  mime_type: z.string().nullable(),
  size: z.number().int().min(0),
  created_at: z.string(),
});
const chunkSchema = z.object({
  id: z.number().int().positive(),
  item_id: z.number().int().positive(),
  position: z.number().int().min(0),
  source: z.string(),
  content: z.string(),
});
const vectorSchema = z.object({ chunk_id: z.number().int().positive(), vector: z.string() });
const memorySchema = z.object({
  content: memoryContentRequestSchema.shape.content,
  source: z.enum(["user", "assistant"]),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export interface ParsedBackup {
  manifest: z.infer<typeof manifestSchema>;
  items: z.infer<typeof itemSchema>[];
  chunks: z.infer<typeof chunkSchema>[];
  vectors: { chunkId: number; vector: Buffer }[];
  /** Absent in backups made before memories existed: the user's memories are then left as they are. */
  memories?: z.infer<typeof memorySchema>[];
}

const fail = (detail: string) => badRequest(`Import Failed: ${detail}`, "import_failed");

/** Reads and validates a backup zip without touching the store; any problem is a 400 naming it. */
export async function readBackup(zipPath: string): Promise<ParsedBackup> {
  const texts = await readEntries(zipPath);
  const parseLines = <T>(name: string, schema: z.ZodType<T>): T[] =>
    (texts.get(name) ?? "")
      .split("\n")
      .filter((line) => line.trim())
      .map((line, index) => {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw fail(`${name} line ${index + 1} is not JSON`);
        }
        const parsed = schema.safeParse(value);
        if (!parsed.success) throw fail(`${name} line ${index + 1} is invalid (${parsed.error.issues[0]?.path.join(".")})`);
        return parsed.data;
      });

  if (!texts.has("manifest.json")) throw fail("the archive has no manifest.json; it is not a SAGE vector database backup");
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(texts.get("manifest.json")!);
  } catch {
    throw fail("manifest.json is not JSON");
  }
  const manifest = manifestSchema.safeParse(manifestJson);
  if (!manifest.success) throw fail(`manifest.json is not a SAGE backup manifest (${manifest.error.issues[0]?.path.join(".") || "format"})`);
  const items = parseLines("items.jsonl", itemSchema);
  const chunks = parseLines("chunks.jsonl", chunkSchema);
  const rawVectors = parseLines("vectors.jsonl", vectorSchema);
  const { counts, embedder } = manifest.data;
  if (items.length !== counts.items || chunks.length !== counts.chunks || rawVectors.length !== counts.vectors) {
    throw fail("the archive's contents do not match its manifest counts");
  }
  const itemIds = new Set(items.map((item) => item.id));
  if (itemIds.size !== items.length) throw fail("items.jsonl repeats an id");
  for (const item of items) if (item.parent_id !== null && !itemIds.has(item.parent_id)) throw fail(`item ${item.id} has a missing parent`);
  // A cycle is found here, before the store is touched, rather than by the transaction that applies the backup.
  const parentOf = new Map(items.map((item) => [item.id, item.parent_id]));
  for (const item of items) {
    let steps = 0;
    for (let at: number | null = item.id; at !== null; at = parentOf.get(at) ?? null) {
      if (++steps > items.length) throw fail("the items tree has a cycle");
    }
  }
  const chunkIds = new Set(chunks.map((chunk) => chunk.id));
  if (chunkIds.size !== chunks.length) throw fail("chunks.jsonl repeats an id");
  for (const chunk of chunks) if (!itemIds.has(chunk.item_id)) throw fail(`chunk ${chunk.id} belongs to a missing item`);
  const vectors = rawVectors.map((row) => {
    const vector = Buffer.from(row.vector, "base64");
    if (!chunkIds.has(row.chunk_id)) throw fail(`a vector belongs to a missing chunk (${row.chunk_id})`);
    if (!embedder || vector.length !== embedder.dimensions * 4) throw fail(`vector of chunk ${row.chunk_id} does not have the manifest's dimensions`);
    return { chunkId: row.chunk_id, vector };
  });
  const memories = texts.has("memories.jsonl") ? parseLines("memories.jsonl", memorySchema) : undefined;
  return { manifest: manifest.data, items, chunks, vectors, memories };
}

function readEntries(zipPath: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, autoClose: true }, (openError, zip) => {
      if (openError || !zip) return reject(fail("the file is not a readable ZIP archive"));
      if (zip.entryCount > MAX_ARCHIVE_ENTRIES) {
        zip.close();
        return reject(fail(`the archive has ${zip.entryCount} entries; a backup has at most ${MAX_ARCHIVE_ENTRIES}`));
      }
      const texts = new Map<string, string>();
      let expanded = 0;
      // Errors can arrive after the end or after another error (and close() throws once autoClose has
      // closed the file), so settle exactly once and never throw from an event handler.
      let settled = false;
      const abort = (error: Error) => {
        if (settled) return;
        settled = true;
        try {
          zip.close();
        } catch {
          // already closed
        }
        reject(error);
      };
      // yauzl itself refuses absolute and '..' names (and backslashes, being strict) before we see the entry.
      zip.on("error", (error: Error) => {
        const unsafe = /(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(error.message);
        abort(fail(unsafe ? `the archive contains an unsafe path: ${unsafe[1]}` : "the ZIP archive is corrupt"));
      });
      zip.on("end", () => {
        if (settled) return;
        settled = true;
        resolve(texts);
      });
      zip.on("entry", (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (name.startsWith("/") || name.includes("\\") || name.split("/").includes("..") || /^[a-z]:/i.test(name)) {
          return abort(fail(`the archive contains an unsafe path: ${name}`));
        }
        // Unix file type in the high bits of the external attributes: a symlink is never part of a backup.
        if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000) {
          return abort(fail(`the archive contains a symbolic link: ${name}`));
        }
        if (name.endsWith("/") || !(KNOWN_ENTRIES as readonly string[]).includes(name)) return zip.readEntry();
        if (entry.uncompressedSize > RATIO_CHECK_FROM_BYTES && entry.uncompressedSize > Math.max(entry.compressedSize, 1) * MAX_COMPRESSION_RATIO) {
          return abort(fail(`${name} has a compression ratio over ${MAX_COMPRESSION_RATIO}:1, which no backup has (a zip bomb?)`));
        }
        expanded += entry.uncompressedSize;
        if (expanded > MAX_EXPANDED_BYTES) return abort(fail("the archive expands beyond the size a backup may have"));
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return abort(fail("the ZIP archive is corrupt"));
          const parts: Buffer[] = [];
          stream.on("data", (part: Buffer) => parts.push(part));
          stream.on("error", () => abort(fail("the ZIP archive is corrupt")));
          stream.on("end", () => {
            if (settled) return;
            texts.set(name, Buffer.concat(parts).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
