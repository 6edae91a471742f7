import { restoredItemFromBackup, type KnowledgeBackupPort, type RestoredItem } from "../knowledge/knowledge.module.ts";
import type { RestoredChunk, RetrievalBackupPort } from "../retrieval/retrieval.module.ts";
import { chunkSchema, ENTRY, fileEntryName, itemSchema, vectorSchema, type ItemBackupRow, type VectorBackupRow } from "./backup-format.ts";
import type { BackupPart } from "./backup-part.ts";
import type { CheckedBackup } from "./check-backup.ts";
import type { BackupArchive } from "./open-backup-archive.ts";

/** Rows per transaction: each holds SQLite's only connection (or a PostgreSQL lock) for a few milliseconds at most. */
const DELETE_BATCH = 200;
const CHUNK_BATCH = 100;
const PARENT_BATCH = 1_000;
const FILE_NOT_IN_BACKUP = "The backup holds no copy of this file";

export interface RestoreDeps {
  knowledge: KnowledgeBackupPort;
  retrieval: RetrievalBackupPort;
  parts: BackupPart[];
  pace: () => Promise<void>;
}

export interface RestoreResult {
  /** New ids of items the backup caught mid-processing: they are queued again. */
  requeue: number[];
  /** False when the backup's vectors came from another embedder (they are re-embedded instead). */
  vectorsKept: boolean;
}

/**
 * Replaces the user's knowledge with a checked backup, in short transactions that yield in between, so every other
 * request keeps being answered (one transaction for 300,000 items held the server for half a minute). Not atomic
 * by itself: the caller took a snapshot first and restores it if this fails part-way (or at the next start after
 * a crash). Items keep their statuses; uploaded files get their original bytes back.
 */
export async function restoreBackup(
  userId: number,
  archive: BackupArchive,
  checked: CheckedBackup,
  owned: Set<number>,
  deps: RestoreDeps,
): Promise<RestoreResult> {
  const { knowledge, retrieval, pace } = deps;
  retrieval.beforeRestore(userId);
  await drain(() => retrieval.deleteChunks(userId, DELETE_BATCH), pace);
  await drain(() => knowledge.emptyStep(userId, DELETE_BATCH), pace);
  // A backup made before a part existed (no `<name>.jsonl`) leaves that part's rows as they are.
  const carried = deps.parts.filter((part) => archive.entries.has(`${part.name}.jsonl`));
  for (const part of carried) await drain(() => part.emptyStep(userId, DELETE_BATCH), pace);

  // Items, at the root first (a backup need not list parents before children), then their parents.
  const created = new Map<number, { id: number; conversationId: number | null }>();
  const parents: Array<{ id: number; oldParent: number }> = [];
  const requeue: number[] = [];
  for await (const rows of archive.rows(ENTRY.items, itemSchema)) {
    const restored = rows.map((row) => restoredItem(row, checked, owned, knowledge));
    const ids = await knowledge.insertRestored(userId, restored);
    for (const [index, row] of rows.entries()) {
      const id = ids[index]!;
      created.set(row.id, { id, conversationId: restored[index]!.conversationId });
      if (row.parent_id !== null) parents.push({ id, oldParent: row.parent_id });
      if (restored[index]!.status === "queued") requeue.push(id);
    }
    // The rows name their files' keys first, so a failure here leaves no file that no row points to.
    for (const [index, row] of rows.entries()) {
      const key = restored[index]!.storageKey;
      if (key) await knowledge.writeFile(key, await archive.open(fileEntryName(row.id)));
    }
    await pace();
  }
  for (let start = 0; start < parents.length; start += PARENT_BATCH) {
    const batch = parents.slice(start, start + PARENT_BATCH).map((entry) => ({ id: entry.id, parentId: created.get(entry.oldParent)!.id }));
    await knowledge.setParents(batch);
    await pace();
  }

  // Chunks, with their vectors read alongside (both are in chunk id order).
  const embedder = checked.manifest.embedder;
  const vectorsKept = Boolean(embedder && embedder.id === retrieval.currentEmbedderId && checked.manifest.counts.vectors > 0);
  const vectors = vectorsKept ? archive.rows(ENTRY.vectors, vectorSchema)[Symbol.asyncIterator]() : null;
  let pending: VectorBackupRow[] = [];
  let vectorsDone = !vectors;
  async function vectorsUpTo(lastChunkId: number): Promise<VectorBackupRow[]> {
    while (!vectorsDone && (pending.length === 0 || pending[pending.length - 1]!.chunk_id <= lastChunkId)) {
      const next = await vectors!.next();
      if (next.done) vectorsDone = true;
      else pending.push(...next.value);
    }
    const cut = pending.findIndex((row) => row.chunk_id > lastChunkId);
    const taken = cut === -1 ? pending : pending.slice(0, cut);
    pending = cut === -1 ? [] : pending.slice(cut);
    return taken;
  }
  for await (const rows of archive.rows(ENTRY.chunks, chunkSchema)) {
    for (let start = 0; start < rows.length; start += CHUNK_BATCH) {
      const batch = rows.slice(start, start + CHUNK_BATCH);
      const batchVectors = await vectorsUpTo(batch[batch.length - 1]!.id);
      const restored: RestoredChunk[] = batch.map((chunk) => {
        const item = created.get(chunk.item_id)!;
        return { itemId: item.id, conversationId: item.conversationId, position: chunk.position, source: chunk.source, content: chunk.content };
      });
      const positions = new Map(batch.map((chunk, index) => [chunk.id, index]));
      const vectorRows = batchVectors.map((row) => ({ chunk: positions.get(row.chunk_id)!, vector: Buffer.from(row.vector, "base64") }));
      await retrieval.insertChunks(userId, restored, vectorRows.length ? { embedder: embedder!, rows: vectorRows } : null);
      await pace();
    }
  }

  const restoredIds = { itemId: (backupId: number) => created.get(backupId)?.id };
  for (const part of carried) {
    for await (const rows of archive.rows(`${part.name}.jsonl`, part.schema)) {
      await part.insert(userId, rows, restoredIds);
      await pace();
    }
  }
  return { requeue, vectorsKept };
}

/** Runs a batch step until it reports nothing left, yielding between batches. */
async function drain(step: () => Promise<number>, pace: () => Promise<void>) {
  while ((await step()) > 0) await pace();
}

/** An item as it was, under the user's own conversations; one caught mid-processing is queued again. */
function restoredItem(row: ItemBackupRow, checked: CheckedBackup, owned: Set<number>, knowledge: KnowledgeBackupPort): RestoredItem {
  const hasBytes = Boolean(row.file);
  let status = row.status ?? "ready";
  let statusReason = row.status === undefined ? null : (row.status_reason ?? null);
  if (status === "processing" || status === "queued") {
    status = row.type === "file" && !hasBytes ? "failed" : "queued";
    statusReason = status === "failed" ? FILE_NOT_IN_BACKUP : null;
  }
  return restoredItemFromBackup(row, {
    conversationId: row.conversation_id !== null && owned.has(row.conversation_id) ? row.conversation_id : null,
    storageKey: hasBytes ? knowledge.newFileKey() : null,
    status,
    statusReason,
    chunkCount: checked.chunkCounts.get(row.id) ?? 0,
  });
}
