import { setTimeout as sleep } from "node:timers/promises";
import type { BlobStore } from "../../store/blob-store.ts";
import type { KnowledgeItemRow } from "../../store/schema.ts";
import {
  ConversionError,
  supportedExtension,
  type Chunk,
  type ConversionInput,
  type ConvertedDocument,
  type DocumentReader,
} from "../../documents/documents.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";
import { placeMailChunks } from "./mail-place.ts";
import { ocrFields, readWarning } from "./read-warnings.ts";

/** The pause after a batch, as a share of the time it took (within MAX_PAUSE_MS). */
const PAUSE_SHARE = 0.25;
const MAX_PAUSE_MS = 100;

export interface ReadTogetherDeps {
  repo: KnowledgeRepo;
  blobs: BlobStore;
  documents: Pick<DocumentReader, "convertMany">;
  index: {
    indexItems(
      entries: Array<{ item: { id: number; userId: number; conversationId: number | null }; chunks: Chunk[] }>,
    ): Promise<Array<{ chunkCount: number; vectorError?: unknown } | null>>;
  };
  /** Reads one item on its own, recording its outcome on the item (ingestion's usual path). */
  readAlone(itemId: number): Promise<void>;
  addAttachments(item: KnowledgeItemRow, document: ConvertedDocument): Promise<void>;
  warn(message: string, error?: unknown): void;
}

/** Items read in a batch: stored files of the knowledge base itself (no conversation's, whose deletion stops a read). */
const readableTogether = (item: KnowledgeItemRow) =>
  item.type === "file" && item.conversationId === null && item.storageKey !== null && supportedExtension(item.name) !== null;

/**
 * Reads many small stored files together (a mail sync's batch, decision 049): one round trip to a conversion
 * process, one statement to mark them processing, a few commits to index them, and one to mark them ready. Read
 * one by one, each message paid a job, a dozen statements and a commit of its own, four times what reading it
 * costs. Each item ends as it would alone (ready, stored, or failed with its reason); the batch fails only when the
 * store does. Items already read (a resumed batch) are skipped.
 */
export async function readTogether(deps: ReadTogetherDeps, itemIds: number[]): Promise<void> {
  const { repo } = deps;
  const waiting = (await repo.getItemsByIds(itemIds)).filter((item) => item.status === "queued" || item.status === "processing");
  const items = waiting.filter(readableTogether);
  for (const item of waiting) if (!readableTogether(item)) await deps.readAlone(item.id);
  if (items.length === 0) return;
  await repo.updateItems(
    items.map((item) => item.id),
    { status: "processing", statusReason: null },
  );
  const startedAt = performance.now();
  const documents = await convertAll(deps, items);
  const read: Array<{ item: KnowledgeItemRow; document: ConvertedDocument }> = [];
  for (const [index, item] of items.entries()) {
    const document = documents[index]!;
    if (document === "alone") continue;
    if (document instanceof ConversionError) {
      if (document.detail) deps.warn(`reading knowledge item ${item.id} failed: ${document.message}`, document.detail);
      await repo.updateItem(item.id, { status: "failed", statusReason: document.message, chunkCount: 0 });
      continue;
    }
    if (document.attachments?.length) await deps.addAttachments(item, document);
    if (document.notProcessedReason) {
      await repo.updateItem(item.id, { status: "stored", statusReason: document.notProcessedReason, chunkCount: 0, ...ocrFields(document) });
      continue;
    }
    read.push({ item, document });
  }
  const indexed = await deps.index.indexItems(read.map(({ item, document }) => ({ item, chunks: placeMailChunks(item, document.chunks) })));
  // Most end alike (ready, no warning): one statement for them.
  const plain = new Map<number, number>();
  for (const [index, { item, document }] of read.entries()) {
    const outcome = indexed[index];
    if (!outcome) continue; // deleted meanwhile
    if (outcome.vectorError) deps.warn(`vectorising knowledge item ${item.id} failed`, outcome.vectorError);
    const warning = readWarning(document, outcome.vectorError);
    if (warning === null && !document.ocrPages?.length && !document.ocrFailedPages?.length) plain.set(item.id, outcome.chunkCount);
    else await repo.updateItem(item.id, { status: "ready", statusReason: warning, chunkCount: outcome.chunkCount, ...ocrFields(document) });
  }
  await repo.updateItems([...plain.keys()], { status: "ready", statusReason: null, ...ocrFields({}) }, plain);
  // A pause after each batch leaves the cores to the server's requests: /api/health's p50 during a mailbox's sync
  // fell from 9-17 ms to 3 ms, its p99 below 50 ms, for a quarter of the pace (decision 049).
  await sleep(Math.min(MAX_PAUSE_MS, (performance.now() - startedAt) * PAUSE_SHARE));
}

/**
 * The items' documents, read by one conversion process. One that died (a message past the memory or time limit)
 * leaves the batch to be read one by one, so only the message at fault fails: those come back as "alone".
 */
async function convertAll(deps: ReadTogetherDeps, items: KnowledgeItemRow[]): Promise<Array<ConvertedDocument | ConversionError | "alone">> {
  const inputs: ConversionInput[] = items.map((item) => ({
    kind: "file",
    extension: supportedExtension(item.name)!,
    path: deps.blobs.pathOf(item.storageKey!),
  }));
  try {
    return await deps.documents.convertMany(inputs);
  } catch {
    for (const item of items) await deps.readAlone(item.id);
    return items.map(() => "alone" as const);
  }
}
