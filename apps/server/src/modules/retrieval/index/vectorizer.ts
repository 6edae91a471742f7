import { setImmediate as nextTurn } from "node:timers/promises";
import type BetterSqlite3 from "better-sqlite3";
import type { Embedder } from "../../../providers/embedder/embedder.ts";
import type { VectorStore } from "./vector-store.ts";

interface PendingChunk {
  id: number;
  userId: number;
  conversationId: number | null;
  content: string;
  name: string;
}

/** Embeds chunks in batches no larger than the embedder allows and stores their vectors. */
export function createVectorizer(deps: { sqlite: BetterSqlite3.Database; embedder: Embedder | null; vectors: VectorStore }) {
  const { sqlite, embedder, vectors } = deps;
  // A page at a time in the order of the text (index chunks_item): reading a 20 MB document's 25,000 chunks in one
  // call held the server's thread for 1.4 s.
  const missingForItem = sqlite.prepare(
    `SELECT c.id, c.position, c.user_id AS userId, c.conversation_id AS conversationId, c.content, ki.name
     FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
     WHERE c.item_id = ? AND (c.position, c.id) > (?, ?)
       AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.embedder_id = ?)
     ORDER BY c.position, c.id LIMIT ?`,
  );
  const missingForUser = sqlite.prepare(
    `SELECT c.id, c.user_id AS userId, c.conversation_id AS conversationId, c.content, ki.name
     FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
     WHERE c.user_id = ? AND c.id > ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.embedder_id = ?)
     ORDER BY c.id LIMIT ?`,
  );
  const allForUser = sqlite.prepare(
    `SELECT c.id, c.user_id AS userId, c.conversation_id AS conversationId, c.content, ki.name
     FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
     WHERE c.user_id = ? AND c.id > ? ORDER BY c.id LIMIT ?`,
  );
  const countForUser = sqlite.prepare("SELECT count(*) AS n FROM chunks WHERE user_id = ?");
  const dropOtherEmbedders = sqlite.prepare("DELETE FROM chunk_vectors WHERE user_id = ? AND embedder_id <> ?");
  // Missing vectors are counted, not looked for: a vector row exists only for a live chunk of the same user (it goes
  // with its chunk by cascade) and once per embedder, so a user lacks vectors exactly when they have fewer vectors of
  // the embedder than chunks. Two covering-index counts: 80 ms at a million chunks, where probing each chunk for its
  // vector took 10.4 s, which start-up waited for before loading the vector index (decision 050).
  const usersMissing = sqlite.prepare(
    `SELECT c.user_id AS userId FROM (SELECT user_id, count(*) AS n FROM chunks GROUP BY user_id) c
     LEFT JOIN (SELECT user_id, count(*) AS n FROM chunk_vectors WHERE embedder_id = ? GROUP BY user_id) v ON v.user_id = c.user_id
     WHERE c.n > coalesce(v.n, 0) ORDER BY c.user_id`,
  );
  const countMissing = sqlite.prepare(
    `SELECT (SELECT count(*) FROM chunks WHERE user_id = @userId)
          - (SELECT count(*) FROM chunk_vectors WHERE embedder_id = @embedderId AND user_id = @userId) AS n`,
  );
  const countMissingForUser = (userId: number, embedderId: string) => (countMissing.get({ userId, embedderId }) as { n: number }).n;

  // The file name goes in front of the text: it is often the best summary of what a chunk is about.
  const embedTexts = (active: Embedder, chunks: PendingChunk[]) =>
    active.embed(
      chunks.map((chunk) => `${chunk.name}\n${chunk.content}`),
      { kind: "document" },
    );

  const chunkExists = sqlite.prepare("SELECT 1 FROM chunks WHERE id = ?").pluck();

  /**
   * Stores a batch's vectors. A chunk may have gone while its text was being embedded (its item re-ingested or
   * deleted by a request or a resumed job): its vector is dropped, checked in the same tick as the write.
   */
  function store(active: Embedder, chunks: PendingChunk[], embedded: number[][]) {
    const rows = chunks
      .map((chunk, index) => ({ chunkId: chunk.id, userId: chunk.userId, conversationId: chunk.conversationId, vector: embedded[index]! }))
      .filter((row) => chunkExists.get(row.chunkId) !== undefined);
    if (rows.length > 0) vectors.upsert(active.id, rows);
  }

  /**
   * Embeds batch after batch with the next request already in flight while the previous batch is stored, so
   * the embedder's latency, not our storing, sets the pace (at most two requests in flight).
   */
  async function embedBatches(active: Embedder, nextBatch: () => PendingChunk[], onStored?: (batch: PendingChunk[]) => Promise<boolean | void>) {
    const start = (batch: PendingChunk[]) => {
      if (batch.length === 0) return null;
      const request = embedTexts(active, batch);
      request.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
      return request;
    };
    // Reading the next batch, parsing a reply and storing its vectors each take a few ms of the server's thread;
    // chained in one run of promise callbacks they held it 80-140 ms while a large document was embedded, so each
    // gets a turn of the event loop of its own.
    let batch = nextBatch();
    let inFlight = start(batch);
    while (inFlight) {
      const current = batch;
      const embedded = inFlight;
      await nextTurn();
      batch = nextBatch();
      inFlight = start(batch);
      const vectorsOfBatch = await embedded;
      await nextTurn();
      store(active, current, vectorsOfBatch);
      // false: stop here (a batch already asked for is dropped).
      if ((await onStored?.(current)) === false) {
        await inFlight?.catch(() => undefined);
        return;
      }
    }
  }

  /** Pages through rows by id, `size` at a time. */
  function pager(read: (after: number, size: number) => PendingChunk[], size: number) {
    let after = 0;
    return () => {
      const batch = read(after, size);
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
      await embedBatches(embedder, () => {
        const batch = missingForItem.all(itemId, after.position, after.id, embedder.id, embedder.maxBatch) as Array<PendingChunk & { position: number }>;
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
      const total = (countForUser.get(userId) as { n: number }).n;
      let processed = 0;
      await progress?.(0, total);
      const next = pager((after, size) => allForUser.all(userId, after, size) as PendingChunk[], embedder.maxBatch);
      await embedBatches(embedder, next, async (batch) => {
        processed += batch.length;
        await progress?.(Math.min(processed, total), Math.max(total, processed));
      });
      dropOtherEmbedders.run(userId, embedder.id);
      vectors.forgetOtherEmbedders(userId, embedder.id);
      return processed;
    },

    /** Users with chunks that have no vector from the current embedder (none without an embedder). */
    usersMissingVectors(): number[] {
      if (!embedder) return [];
      return (usersMissing.all(embedder.id) as { userId: number }[]).map((row) => row.userId);
    },

    /** Once every chunk of the user has a current vector, vectors of earlier embedders are dead weight. */
    dropOtherEmbeddersIfComplete(userId: number): void {
      if (!embedder || countMissingForUser(userId, embedder.id) > 0) return;
      dropOtherEmbedders.run(userId, embedder.id);
      vectors.forgetOtherEmbedders(userId, embedder.id);
    },

    /**
     * Embeds every chunk of the user that has no vector from the current embedder; returns how many. `progress`
     * may answer false after a batch to stop there.
     */
    async vectorizeUser(userId: number, progress?: (processed: number, total: number) => Promise<boolean | void>): Promise<number> {
      if (!embedder) return 0;
      const total = countMissingForUser(userId, embedder.id);
      let processed = 0;
      await progress?.(0, total);
      const next = pager((after, size) => missingForUser.all(userId, after, embedder.id, size) as PendingChunk[], embedder.maxBatch);
      await embedBatches(embedder, next, async (batch) => {
        processed += batch.length;
        return progress?.(processed, total);
      });
      return processed;
    },
  };
}

export type Vectorizer = ReturnType<typeof createVectorizer>;
