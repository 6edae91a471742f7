import { createHash } from "node:crypto";
import type { BackupPart } from "./backup-part.ts";
import { chunkSchema, ENTRY, fileEntryName, importFailed, itemSchema, manifestSchema, vectorSchema, type BackupManifest } from "./backup-format.ts";
import type { BackupArchive } from "./open-backup-archive.ts";

/** What a checked backup holds, and what its restore needs to know before writing anything. */
export interface CheckedBackup {
  manifest: BackupManifest;
  summary: { files: number; links: number; notes: number; folders: number };
  /** Chunks per item (old ids): each restored item records its count. */
  chunkCounts: Map<number, number>;
  /** The conversations the backup's items were attached to (old ids; kept when the user owns them). */
  conversationIds: Set<number>;
}

const MANIFEST_MAX_BYTES = 1024 * 1024;
const mismatch = () => importFailed("the archive's contents do not match its manifest counts");

/**
 * Reads the whole backup once, streaming, and checks it without touching the store: the manifest, every row
 * against its schema, ids in ascending order, parents that exist and no cycle, chunks of listed items, vectors of
 * listed chunks with the manifest's dimensions, counts that match, and each original file's size and SHA-256. Any
 * problem is a 400 naming it. `pace` yields to the event loop now and then.
 */
export async function checkBackup(archive: BackupArchive, parts: BackupPart[], pace: () => Promise<void>): Promise<CheckedBackup> {
  if (!archive.entries.has(ENTRY.manifest)) throw importFailed("the archive has no manifest.json; it is not a SAGE vector database backup");
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(await archive.text(ENTRY.manifest, MANIFEST_MAX_BYTES));
  } catch (error) {
    if (error instanceof SyntaxError) throw importFailed("manifest.json is not JSON");
    throw error;
  }
  const parsed = manifestSchema.safeParse(manifestJson);
  if (!parsed.success) throw importFailed(`manifest.json is not a SAGE backup manifest (${parsed.error.issues[0]?.path.join(".") || "format"})`);
  const manifest = parsed.data;
  const { counts, embedder } = manifest;

  // Items: parent of each (0 at the root), and the files whose bytes the zip carries.
  const parents = new Map<number, number>();
  const summary = { files: 0, links: 0, notes: 0, folders: 0 };
  const conversationIds = new Set<number>();
  const withBytes: Array<{ id: number; size: number; hash: string | null }> = [];
  let lastId = 0;
  for await (const rows of archive.rows(ENTRY.items, itemSchema)) {
    for (const item of rows) {
      if (item.id <= lastId) throw importFailed(item.id === lastId ? "items.jsonl repeats an id" : `items.jsonl is not in id order (item ${item.id})`);
      lastId = item.id;
      if (parents.size >= counts.items) throw mismatch();
      parents.set(item.id, item.parent_id ?? 0);
      summary[item.type === "file" ? "files" : item.type === "url" ? "links" : item.type === "note" ? "notes" : "folders"] += 1;
      if (item.conversation_id !== null) conversationIds.add(item.conversation_id);
      if (manifest.version >= 2 && item.status === undefined) throw importFailed(`item ${item.id} has no status`);
      if (item.file) {
        const entry = archive.files.get(item.id);
        if (item.type !== "file" || item.file !== fileEntryName(item.id) || !entry)
          throw importFailed(`item ${item.id} names a file the archive does not hold`);
        if (entry.size !== item.size) throw importFailed(`${item.file} is not the size its item records`);
        withBytes.push({ id: item.id, size: item.size, hash: item.content_hash ?? null });
      }
    }
    await pace();
  }
  if (parents.size !== counts.items) throw mismatch();
  for (const [id, parent] of parents) if (parent !== 0 && !parents.has(parent)) throw importFailed(`item ${id} has a missing parent`);
  checkNoCycle(parents);
  if (archive.files.size !== withBytes.length) throw importFailed("the archive holds files that belong to no item");
  if (counts.files !== undefined && counts.files !== withBytes.length) throw mismatch();

  // Chunks: ascending ids, each of a listed item; their ids are kept (sorted) to check the vectors against.
  const chunkCounts = new Map<number, number>();
  const chunkIds: number[] = [];
  for await (const rows of archive.rows(ENTRY.chunks, chunkSchema)) {
    for (const chunk of rows) {
      const last = chunkIds[chunkIds.length - 1] ?? 0;
      if (chunk.id <= last) throw importFailed(chunk.id === last ? "chunks.jsonl repeats an id" : `chunks.jsonl is not in id order (chunk ${chunk.id})`);
      if (!parents.has(chunk.item_id)) throw importFailed(`chunk ${chunk.id} belongs to a missing item`);
      if (chunkIds.length >= counts.chunks) throw mismatch();
      chunkIds.push(chunk.id);
      chunkCounts.set(chunk.item_id, (chunkCounts.get(chunk.item_id) ?? 0) + 1);
    }
    await pace();
  }
  if (chunkIds.length !== counts.chunks) throw mismatch();

  // Vectors: ascending chunk ids, so one pointer walks the chunk ids alongside.
  let vectors = 0;
  let at = 0;
  for await (const rows of archive.rows(ENTRY.vectors, vectorSchema)) {
    for (const row of rows) {
      if (!embedder || Buffer.byteLength(row.vector, "base64") !== embedder.dimensions * 4) {
        throw importFailed(`vector of chunk ${row.chunk_id} does not have the manifest's dimensions`);
      }
      while (at < chunkIds.length && chunkIds[at]! < row.chunk_id) at++;
      if (chunkIds[at] !== row.chunk_id) throw importFailed(`a vector belongs to a missing chunk (${row.chunk_id}), or vectors.jsonl is not in chunk order`);
      at++;
      if (++vectors > counts.vectors) throw mismatch();
    }
    await pace();
  }
  if (vectors !== counts.vectors) throw mismatch();

  for (const part of parts) {
    let rows = 0;
    for await (const batch of archive.rows(`${part.name}.jsonl`, part.schema)) {
      rows += batch.length;
      await pace();
    }
    if (rows !== (counts.parts?.[part.name] ?? 0)) throw mismatch();
  }

  for (const file of withBytes) await checkFile(archive, file, pace);
  return { manifest, summary, chunkCounts, conversationIds };
}

/** Walks up from every item once (items already walked are known to reach the root). */
function checkNoCycle(parents: Map<number, number>) {
  const reachesRoot = new Set<number>([0]);
  for (const start of parents.keys()) {
    const path = new Set<number>();
    let at = start;
    while (!reachesRoot.has(at)) {
      if (path.has(at)) throw importFailed("the items tree has a cycle");
      path.add(at);
      at = parents.get(at)!;
    }
    for (const id of path) reachesRoot.add(id);
  }
}

async function checkFile(archive: BackupArchive, file: { id: number; size: number; hash: string | null }, pace: () => Promise<void>) {
  const hash = createHash("sha256");
  let size = 0;
  const name = fileEntryName(file.id);
  try {
    for await (const part of await archive.open(name)) {
      hash.update(part as Buffer);
      size += (part as Buffer).length;
      await pace();
    }
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === "import_failed") throw error;
    throw importFailed("the ZIP archive is corrupt");
  }
  if (size !== file.size || (file.hash !== null && hash.digest("hex") !== file.hash))
    throw importFailed(`${name} is not the file its item records (its size or SHA-256 differs)`);
}
