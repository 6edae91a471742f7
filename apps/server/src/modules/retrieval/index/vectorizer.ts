import { setImmediate as nextTurn } from "node:timers/promises";
import type BetterSqlite3 from "better-sqlite3";
import type { Embedder } from "../../../providers/embedder/embedder.ts";
import { sqliteUnembeddedChunks, type Awaitable, type PendingChunk, type UnembeddedChunks, type Vectors } from "./vectors.ts";

/** SQLite's vectorizer is built from its connection and vector store; any engine's from its own two halves. */
type VectorizerDeps =
  | { sqlite: BetterSqlite3.Database; embedder: Embedder | null; vectors: Vectors }
  | { unembedded: UnembeddedChunks; embedder: Embedder | null; vectors: Vectors };

const settled = async <T>(value: Awaitable<T>): Promise<T> => value;

/** Embeds chunks in batches no larger than the embedder allows and stores their vectors. */
export function createVectorizer(deps: VectorizerDeps) {
  const { embedder, vectors } = deps;
  const source = "unembedded" in deps ? deps.unembedded : sqliteUnembeddedChunks(deps.sqlite);

  // The file name goes in front of the text: it is often the best summary of what a chunk is about.
  const embedTexts = (active: Embedder, chunks: PendingChunk[]) =>
    active.embed(
      chunks.map((chunk) => `${chunk.name}\n${chunk.content}`),
      { kind: "document" },
    );

  /**
   * Stores a batch's vectors. A chunk may have gone while its text was being embedded (its item re-ingested or
   * deleted by a request or a resumed job): its vector is dropped, checked in the same tick as the write.
   */
  async function store(active: Embedder, chunks: PendingChunk[], embedded: number[][]) {
    const answer = source.existing(chunks.map((chunk) => chunk.id));
    // SQLite answers at once: the check and the write then run in one tick, with no request in between.
    const existing = answer instanceof Promise ? await answer : answer;
    const rows = chunks
      .map((chunk, index) => ({ chunkId: chunk.id, userId: chunk.userId, conversationId: chunk.conversationId, vector: embedded[index]! }))
      .filter((row) => existing.has(row.chunkId));
    if (rows.length > 0) await vectors.upsert(active.id, rows);
  }

  /**
   * Embeds batch after batch with the next request already in flight while the previous batch is stored, so
   * the embedder's latency, not our storing, sets the pace (at most two requests in flight).
   */
  async function embedBatches(active: Embedder, nextBatch: () => Promise<PendingChunk[]>, onStored?: (batch: PendingChunk[]) => Promise<boolean | void>) {
    const start = (batch: PendingChunk[]) => {
      if (batch.length === 0) return null;
      const request = embedTexts(active, batch);
      request.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
      return request;
    };
    // Reading the next batch, parsing a reply and storing its vectors each take a few ms of the server's thread;
    // chained in one run of promise callbacks they held it 80-140 ms while a large document was embedded, so each
    // gets a turn of the event loop of its own.
    let batch = await nextBatch();
    let inFlight = start(batch);
    while (inFlight) {
      const current = batch;
      const embedded = inFlight;
      await nextTurn();
      batch = await nextBatch();
      inFlight = start(batch);
      const vectorsOfBatch = await embedded;
      await nextTurn();
      await store(active, current, vectorsOfBatch);
      // false: stop here (a batch already asked for is dropped).
      if ((await onStored?.(current)) === false) {
        await inFlight?.catch(() => undefined);
        return;
      }
    }
  }

  /** Pages through rows by id, `size` at a time. */
  function pager(read: (after: number, size: number) => Awaitable<PendingChunk[]>, size: number) {
    let after = 0;
    return async () => {
      const batch = await read(after, size);
      if (batch.length) after = batch[batch.length - 1]!.id;
      return batch;
    };
  }

  return {
    embedder,

    /** Called by ingestion once an item's chunks are stored. Without an embedder there is nothing to do. */
    async indexItem(itemId: number): Promise<void> {
      if (!embedder) return;
      let after = { position: -1, id: 0 };
      await embedBatches(embedder, async () => {
        const batch = await source.missingForItem(itemId, after, embedder.id, embedder.maxBatch);
        if (batch.length) after = batch[batch.length - 1]!;
        return batch;
      });
    },

    /**
     * Re-embeds every chunk of the user with the current embedder (old vectors serve searches until replaced),
     * then drops vectors left by other embedders. Returns how many chunks were embedded.
     */
    async revectorizeUser(userId: number, progress?: (processed: number, total: number) => Promise<void>): Promise<number> {
      if (!embedder) return 0;
      vectors.discardSaved(userId); // vectors under existing ids are about to change; see VectorStore.discardSaved
      const total = await source.countForUser(userId);
      let processed = 0;
      await progress?.(0, total);
      const next = pager((after, size) => source.allForUser(userId, after, size), embedder.maxBatch);
      await embedBatches(embedder, next, async (batch) => {
        processed += batch.length;
        await progress?.(Math.min(processed, total), Math.max(total, processed));
      });
      await source.dropOtherEmbedders(userId, embedder.id);
      vectors.forgetOtherEmbedders(userId, embedder.id);
      return processed;
    },

    /** Users with chunks that have no vector from the current embedder (none without an embedder). */
    async usersMissingVectors(): Promise<number[]> {
      if (!embedder) return [];
      return settled(source.usersMissing(embedder.id));
    },

    /** Once every chunk of the user has a current vector, vectors of earlier embedders are dead weight. */
    async dropOtherEmbeddersIfComplete(userId: number): Promise<void> {
      if (!embedder || (await source.countMissing(userId, embedder.id)) > 0) return;
      await source.dropOtherEmbedders(userId, embedder.id);
      vectors.forgetOtherEmbedders(userId, embedder.id);
    },

    /**
     * Embeds every chunk of the user that has no vector from the current embedder; returns how many. `progress`
     * may answer false after a batch to stop there.
     */
    async vectorizeUser(userId: number, progress?: (processed: number, total: number) => Promise<boolean | void>): Promise<number> {
      if (!embedder) return 0;
      const total = await source.countMissing(userId, embedder.id);
      let processed = 0;
      await progress?.(0, total);
      const next = pager((after, size) => source.missingForUser(userId, after, embedder.id, size), embedder.maxBatch);
      await embedBatches(embedder, next, async (batch) => {
        processed += batch.length;
        return progress?.(processed, total);
      });
      return processed;
    },
  };
}

export type Vectorizer = ReturnType<typeof createVectorizer>;
