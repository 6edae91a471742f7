import { UNSUPPORTED_FILE_TYPE_MESSAGE, UNSUPPORTED_FILE_TYPE_TITLE } from "@sage/contracts/knowledge";
import type { SafeFetchResult } from "../../http/safe-fetch.ts";
import type { Job, JobQueue } from "../../jobs/job-queue.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { KnowledgeItemRow } from "../../store/schema.ts";
import { ConversionError, chunkShortNote, supportedExtension, type Chunk, type ConvertedDocument, type DocumentReader } from "../../documents/documents.ts";
import { SliceQueue } from "./slice-queue.ts";
import type { FolderPaths } from "./folder-paths.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";
import { addAttachmentItems } from "./mail-attachments.ts";
import { placeMailChunks } from "./mail-place.ts";
import { VECTOR_WARNING, ocrFields, readWarning } from "./read-warnings.ts";
import { readTogether } from "./read-together.ts";

export { VECTOR_WARNING, ocrFailedWarning, ocrUnclearWarning, pagesNotReadWarning } from "./read-warnings.ts";

export const INGEST_JOB = "knowledge.ingest";
/** Many small items read together (a mail sync's batch, decision 049). */
export const INGEST_BATCH_JOB = "knowledge.ingest-batch";
/**
 * How often a document being read checks that its item is still kept: an item can go without the knowledge service
 * (its conversation deleted, kept restorable, or purged by cascade; a restore replacing the knowledge base), and its
 * reader must stop then too.
 */
const ITEM_CHECK_MS = 1000;
/**
 * What ingestion needs from the search index (the retrieval module provides it): store an item's chunks and
 * embed them, or drop them. A failed embedding is reported, not thrown: the text is still searchable by words.
 */
export interface KnowledgeIndex {
  /** The chunks may come as slices while the document is still being read; they are stored as they come. */
  indexItem(
    item: { id: number; userId: number; conversationId: number | null },
    chunks: Chunk[] | AsyncIterable<Chunk[]>,
  ): Promise<{ chunkCount: number; vectorError?: unknown }>;
  /** Many small items' chunks together (a batch of mails), a few commits in all; null for an item deleted meanwhile. */
  indexItems(
    entries: Array<{ item: { id: number; userId: number; conversationId: number | null }; chunks: Chunk[] }>,
  ): Promise<Array<{ chunkCount: number; vectorError?: unknown } | null>>;
  removeItem(itemId: number): Promise<void>;
  /** An item's name changed: its chunks are found by the new name. */
  itemRenamed(itemId: number): Promise<void>;
  /** Stores an item's chunks for word search at once; `vectors` settles once they are embedded, after the answer. */
  indexNow(item: { id: number; userId: number; conversationId: number | null }, chunks: Chunk[]): Promise<{ chunkCount: number; vectors: Promise<void> }>;
  /** The item's text as read, by page, slide, sheet or heading, for its preview. */
  itemSections(userId: number, itemId: number, maxChars?: number): Promise<{ source: string; text: string }[]>;
}

export interface IngestionDeps {
  repo: KnowledgeRepo;
  blobs: BlobStore;
  jobs: JobQueue;
  index: KnowledgeIndex;
  folders: FolderPaths;
  fetchUrl(url: string): Promise<SafeFetchResult>;
  /** Reads documents into chunks outside the server process (documents/). */
  documents: Pick<DocumentReader, "convert" | "convertMany">;
  warn(message: string, error?: unknown): void;
  /** How long a request waits for its ingestion before answering that it continues in the background. */
  inlineWaitMs: number;
}

/** The ingestion pipeline (extract -> chunk -> index) as a persisted background job, resumed after a crash. */
export function createIngestion(deps: IngestionDeps) {
  const { repo, jobs } = deps;
  /** The items being read now, each with the switch that stops its reader (cancel). */
  const reading = new Map<number, AbortController>();

  /** The item's text as chunks, read in a conversion process (never here: the documents are untrusted). */
  async function extract(item: KnowledgeItemRow, onChunks: (chunks: Chunk[]) => void, signal: AbortSignal): Promise<ConvertedDocument> {
    if (item.type === "note") return deps.documents.convert({ kind: "note", text: await repo.getText(item.id) }, onChunks, signal);
    if (item.type === "file") {
      const extension = supportedExtension(item.name);
      if (!extension || !item.storageKey) throw new ConversionError(`${UNSUPPORTED_FILE_TYPE_TITLE}. ${UNSUPPORTED_FILE_TYPE_MESSAGE}`);
      return deps.documents.convert({ kind: "file", extension, path: deps.blobs.pathOf(item.storageKey) }, onChunks, signal);
    }
    if (item.type === "url" && item.url) {
      const page = await deps.fetchUrl(item.url);
      await repo.updateItem(item.id, { size: page.body.length });
      return deps.documents.convert({ kind: "page", url: page.url, contentType: page.contentType, body: page.body }, onChunks, signal);
    }
    throw new ConversionError("Nothing to process");
  }

  async function ingest(itemId: number): Promise<void> {
    const item = await repo.getItemById(itemId);
    if (!item || item.type === "folder") return;
    // In a deleted conversation: left queued, and read if the conversation is restored.
    if (!(await repo.isKept(item.id))) return void (await repo.updateItem(item.id, { status: "queued", statusReason: null }));
    await repo.updateItem(item.id, { status: "processing", statusReason: null });
    const abort = new AbortController();
    reading.set(item.id, abort);
    const itemCheck = setInterval(() => {
      repo.isKept(item.id).then(
        (kept) => kept || abort.abort(),
        () => {
          // The store is busy or closing: the next check decides.
        },
      );
    }, ITEM_CHECK_MS);
    try {
      // Chunks are stored while the rest of the document is still being read; both settle before anything else.
      const slices = new SliceQueue<Chunk>();
      const read = extract(item, (chunks) => slices.push(placeMailChunks(item, chunks)), abort.signal);
      read.then(
        (document) => {
          slices.push(placeMailChunks(item, document.chunks)); // a reader that hands its chunks over only at the end
          slices.end();
        },
        (error: unknown) => slices.fail(error),
      );
      const [extracted, indexed] = await Promise.allSettled([read, deps.index.indexItem(item, slices)]);
      if (extracted.status === "rejected") throw extracted.reason;
      if (indexed.status === "rejected") throw indexed.reason;
      const document = extracted.value;
      if (document.attachments?.length) await addAttachments(item, document);
      if (document.notProcessedReason) {
        await deps.index.removeItem(item.id);
        await repo.updateItem(item.id, { status: "stored", statusReason: document.notProcessedReason, chunkCount: 0, ...ocrFields(document) });
        return;
      }
      const { chunkCount, vectorError } = indexed.value;
      if (vectorError) deps.warn(`vectorising knowledge item ${item.id} failed`, vectorError);
      await repo.updateItem(item.id, { status: "ready", statusReason: readWarning(document, vectorError), chunkCount, ...ocrFields(document) });
    } catch (error) {
      // Its item (or its conversation) was deleted while it was read: nothing to mark failed. An item kept for a
      // restorable conversation goes back to queued, with none of its half-read chunks searchable.
      if (abort.signal.aborted) {
        if (await repo.getItemById(item.id)) {
          await deps.index.removeItem(item.id);
          await repo.updateItem(item.id, { status: "queued", statusReason: null, chunkCount: 0 });
        }
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof ConversionError && error.detail) deps.warn(`reading knowledge item ${item.id} failed: ${reason}`, error.detail);
      // Chunks commit in batches, so a failure part-way must not leave half a document searchable.
      try {
        await deps.index.removeItem(item.id);
      } catch {
        // The item itself may be gone by now.
      }
      await repo.updateItem(item.id, { status: "failed", statusReason: reason, chunkCount: 0 });
      throw error;
    } finally {
      clearInterval(itemCheck);
      reading.delete(item.id);
    }
  }

  jobs.register<{ itemId: number }>(INGEST_JOB, async ({ payload }) => ingest(payload.itemId), {
    onInterrupted: "resume",
    // Resumed once: documents are read in a separate process, so a server that died twice on the same job died
    // of something a third run would repeat.
    maxResumes: 1,
    onFailed: async (job: Job, reason: string) => {
      const item = job.itemId ? await repo.getItemById(job.itemId) : undefined;
      if (item && item.status !== "failed") await repo.updateItem(item.id, { status: "failed", statusReason: reason });
    },
  });

  const addAttachments = (item: KnowledgeItemRow, document: ConvertedDocument) =>
    addAttachmentItems({ ...deps, enqueue }, item, document.attachments ?? []).then(() => undefined);
  // Each item's outcome is recorded on it; a failure of one is not the batch's.
  const readAlone = (itemId: number) => ingest(itemId).catch(() => undefined);

  jobs.register<{ itemIds: number[] }>(INGEST_BATCH_JOB, async ({ payload }) => readTogether({ ...deps, readAlone, addAttachments }, payload.itemIds), {
    oneAtATime: true,
    onInterrupted: "resume",
    maxResumes: 1,
    onFailed: async (job: Job, reason: string) => {
      const { itemIds } = JSON.parse(job.payload) as { itemIds: number[] };
      const unread = (await repo.getItemsByIds(itemIds)).filter((item) => item.status === "queued" || item.status === "processing");
      await repo.updateItems(
        unread.map((item) => item.id),
        { status: "failed", statusReason: reason },
      );
    },
  });

  /** Marks the item queued and queues its ingestion. */
  async function enqueue(item: { id: number; userId: number }): Promise<Job> {
    await repo.updateItem(item.id, { status: "queued", statusReason: null });
    return jobs.enqueue({ kind: INGEST_JOB, userId: item.userId, itemId: item.id, payload: { itemId: item.id } });
  }

  /** Indexes chunks cut here, marking the item ready; vectors follow in the background. */
  async function indexShort(row: KnowledgeItemRow, chunks: Chunk[]) {
    const { chunkCount, vectors } = await deps.index.indexNow(row, chunks);
    // The item is found by its words at once; a failed embedding shows on it as the usual warning, once it is
    // marked ready (a restart's catch-up embeds what is still missing).
    const vectorsFailed = vectors.then(
      () => false,
      (error: unknown) => {
        deps.warn(`vectorising knowledge item ${row.id} failed`, error);
        return true;
      },
    );
    await repo.updateItem(row.id, { status: "ready", statusReason: null, chunkCount, ...ocrFields({}) });
    void vectorsFailed.then((failed) => (failed ? repo.updateItem(row.id, { statusReason: VECTOR_WARNING }) : undefined)).catch(() => undefined);
  }

  return {
    ingest,
    enqueue,

    /** Queues the reading of the user's files just inserted with the status queued (a mail sync's batch), read together. */
    queueNew: (userId: number, itemIds: number[]) =>
      itemIds.length === 0 ? Promise.resolve(undefined) : jobs.enqueue({ kind: INGEST_BATCH_JOB, userId, payload: { itemIds } }),

    /** Stops reading these items (they were deleted): their reader processes are killed at once. */
    cancel(itemIds: number[]) {
      for (const id of itemIds) reading.get(id)?.abort();
    },

    /**
     * A new or edited note: a short one is indexed in the request (no job queue, no conversion process, no
     * embedding before the answer; issue 35), a long one is queued as before. Answers the job when one was queued.
     */
    async ingestNote(item: { id: number; userId: number }): Promise<Job | undefined> {
      const row = await repo.getItemById(item.id);
      const chunks = row?.type === "note" ? chunkShortNote(await repo.getText(item.id)) : null;
      if (!row || !chunks) return enqueue(item);
      await indexShort(row, chunks);
      return undefined;
    },

    /**
     * A short plain-text file SAGE wrote itself from text it holds (a message forwarded in a channel): chunked here
     * as a note is, since no parser reads it; a long one is queued as any upload.
     */
    async ingestShortText(item: { id: number; userId: number }, text: string): Promise<Job | undefined> {
      const row = await repo.getItemById(item.id);
      const chunks = row?.type === "file" ? chunkShortNote(text) : null;
      if (!row || !chunks) return enqueue(item);
      await indexShort(row, chunks);
      return undefined;
    },

    /** Waits for a job, but no longer than the inline budget; true when it finished. */
    async waitBriefly(job: Job, budgetMs = deps.inlineWaitMs): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), budgetMs)));
      const finished = jobs.waitFor(job.id).then(() => true as const);
      try {
        return await Promise.race([finished, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },

    latestJobFor: (itemId: number) => jobs.latestForItem(itemId),
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;
