import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import { startThread } from "../../../entry-point.ts";
import type { SearchScope } from "./lexical-search.ts";
import type { GraphFile } from "./vector-graph-file.ts";
import type { MergeThreadData } from "./vector-merge-thread.entry.ts";
import { VectorPartition, type PartitionLimits, type VectorSource } from "./vector-partition.ts";

export interface VectorRow {
  chunkId: number;
  userId: number;
  conversationId: number | null;
  vector: number[];
}

type PageRow = { chunkId: number; conversationId: number | null; vector: Buffer };
/** Partitions up to this size are built on the spot (well under a second); larger ones in the background. */
export const SYNC_BUILD_LIMIT = 5_000;
/** A saved index lacking at most this many of the table's vectors catches up on the spot (about 1 ms each at 100k). */
export const SYNC_CATCH_UP_LIMIT = 200;
/** The sizes the store and its partitions change course at; tests pass smaller ones (vector-partition.ts). */
export type VectorStoreLimits = PartitionLimits & { syncBuildLimit: number; syncCatchUpLimit: number };
const BUILD_PAGE = 500;
const BUILD_SLICE_MS = 10;

export const toBlob = (vector: ArrayLike<number>) => Buffer.from(Float32Array.from(vector).buffer);
export const fromBlob = (blob: Buffer) => new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

/** Where a user's partition of one embedder is saved in `indexDir`, without its extension (.usearch, .json). */
export const savedIndexBase = (indexDir: string, embedderId: string, userId: number) =>
  path.join(indexDir, `${userId}-${createHash("sha256").update(embedderId).digest("hex").slice(0, 16)}`);

/**
 * Chunk vectors: the `chunk_vectors` table is the truth (one row per chunk and embedder, gone with its chunk by
 * cascade); an in-memory index per (embedder, user) is built from it on first use and kept in step by this store.
 * Every hit is checked against the table, so the index can never return a deleted chunk.
 */
/** After a merge failed, the partition's next one waits this long (each tries a gigabyte's load at a million). */
const MERGE_RETRY_MS = 10 * 60_000;

export function createVectorStore(
  sqlite: BetterSqlite3.Database,
  options: { indexDir?: string; mergeMinimum?: number; log?: (message: string, error?: unknown) => void; limits?: Partial<VectorStoreLimits> } = {},
) {
  const { syncBuildLimit = SYNC_BUILD_LIMIT, syncCatchUpLimit = SYNC_CATCH_UP_LIMIT, ...partitionLimits } = options.limits ?? {};
  const partitions = new Map<string, VectorPartition>();
  const key = (embedderId: string, userId: number) => `${userId}\u0000${embedderId}`;
  const insert = sqlite.prepare(
    `INSERT INTO chunk_vectors (chunk_id, embedder_id, dimensions, user_id, conversation_id, vector, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (chunk_id, embedder_id) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions`,
  );
  const loadRows = sqlite.prepare(
    "SELECT chunk_id AS chunkId, conversation_id AS conversationId, vector FROM chunk_vectors WHERE embedder_id = ? AND user_id = ?",
  );

  const pageRows = sqlite.prepare(
    `SELECT chunk_id AS chunkId, conversation_id AS conversationId, vector FROM chunk_vectors
     WHERE embedder_id = ? AND user_id = ? AND chunk_id > ? ORDER BY chunk_id LIMIT ?`,
  );
  const building = new Map<string, Promise<void>>();
  /** The partition each running build is filling: upserts go into it too, so it never ends up with old vectors. */
  const inBuild = new Map<string, VectorPartition>();
  /** Bumped when a partition's rows are rewritten behind it, so a build that read them before is thrown away. */
  const generations = new Map<string, number>();
  const generationOf = (name: string) => generations.get(name) ?? 0;
  /** Drops a partition from memory, and the result of any build of it still running. */
  const invalidate = (name: string) => {
    partitions.delete(name);
    generations.set(name, generationOf(name) + 1);
  };
  const namesOf = (userId: number) => [...new Set([...partitions.keys(), ...building.keys()])].filter((name) => name.startsWith(`${userId}\u0000`));
  const liveIds = sqlite.prepare("SELECT chunk_id AS chunkId, conversation_id AS conversationId FROM chunk_vectors WHERE embedder_id = ? AND user_id = ?");
  const vectorRow = sqlite.prepare(
    "SELECT chunk_id AS chunkId, conversation_id AS conversationId, vector FROM chunk_vectors WHERE embedder_id = ? AND chunk_id = ?",
  );
  const dimensionsOf = sqlite.prepare("SELECT dimensions FROM chunk_vectors WHERE embedder_id = ? AND user_id = ? LIMIT 1");
  const anyVector = sqlite.prepare("SELECT 1 FROM chunk_vectors WHERE embedder_id = ? AND user_id = ? LIMIT 1");
  // One statement per hit count: preparing an `IN (...)` on every search cost as much as the ANN query itself.
  const liveStatements = new Map<number, BetterSqlite3.Statement>();
  const liveOf = (count: number) => {
    let statement = liveStatements.get(count);
    if (!statement) {
      statement = sqlite.prepare(`SELECT chunk_id AS id FROM chunk_vectors WHERE embedder_id = ? AND chunk_id IN (${Array(count).fill("?").join(",")})`);
      liveStatements.set(count, statement);
    }
    return statement;
  };
  const deleteForUser = sqlite.prepare("DELETE FROM chunk_vectors WHERE user_id = ?");
  const countsFor = sqlite.prepare(
    `SELECT (SELECT count(*) FROM chunk_vectors WHERE embedder_id = ? AND user_id = ?) AS current,
            (SELECT count(*) FROM chunk_vectors WHERE embedder_id <> ? AND user_id = ?) AS other`,
  );
  const usersWith = sqlite.prepare("SELECT DISTINCT user_id AS userId FROM chunk_vectors WHERE embedder_id = ?");
  const exportPage = sqlite.prepare(
    "SELECT chunk_id AS chunkId, vector FROM chunk_vectors WHERE embedder_id = ? AND user_id = ? AND chunk_id > ? ORDER BY chunk_id LIMIT ?",
  );
  const floatsOf = sqlite.prepare(
    "SELECT chunk_id AS chunkId, vector FROM chunk_vectors WHERE embedder_id = ? AND chunk_id IN (SELECT value FROM json_each(?))",
  );
  /** Where a partition reads the float vectors it rescores with: the table, which is the truth. */
  const sourceFor =
    (embedderId: string): VectorSource =>
    (chunkIds) =>
      new Map((floatsOf.all(embedderId, JSON.stringify(chunkIds)) as { chunkId: number; vector: Buffer }[]).map((row) => [row.chunkId, fromBlob(row.vector)]));
  const summaryOf = sqlite.prepare(
    `SELECT count(*) AS count, coalesce(max(chunk_id), 0) AS maxChunkId, coalesce(sum(chunk_id), 0) AS sumChunkIds
     FROM chunk_vectors WHERE embedder_id = ? AND user_id = ?`,
  );
  const basePath = (embedderId: string, userId: number) => savedIndexBase(options.indexDir!, embedderId, userId);
  const merges = new Map<string, { stop(): void; done: Promise<void> }>();
  const mergeFailedAt = new Map<string, number>();
  /**
   * Users whose saved indexes a re-vectorise discarded, until it ends: vectors under existing ids are being replaced,
   * so nothing of theirs is saved meanwhile (a crash then rebuilds instead of reading back old vectors).
   */
  const revectorizing = new Set<number>();

  /**
   * Merges a saved partition's graphs in a worker thread once enough was added or removed beside its mapped graph
   * (vector-graphs.ts), then maps the result and saves. Searches go on against the graphs as they are meanwhile.
   */
  function mergeIfDue(embedderId: string, userId: number, partition: VectorPartition) {
    const name = key(embedderId, userId);
    if (!options.indexDir || sqlite.memory || merges.has(name) || revectorizing.has(userId)) return;
    if (Date.now() - (mergeFailedAt.get(name) ?? -Infinity) < MERGE_RETRY_MS || !partition.mergeDue(options.mergeMinimum)) return;
    const base = basePath(embedderId, userId);
    const job = partition.beginMerge(base);
    const workerData: MergeThreadData = { job, databaseFile: sqlite.name, embedderId };
    let worker: Worker;
    try {
      worker = startThread(new URL("./vector-merge-thread.entry.ts", import.meta.url), { workerData });
    } catch {
      partition.abandonMerge();
      return;
    }
    let graph: GraphFile | null = null;
    let stopping = false;
    worker.on("message", (message: { graph: GraphFile }) => (graph = message.graph));
    // A failed merge leaves the graphs as they were; the partition's next merge waits (MERGE_RETRY_MS).
    worker.on("error", (error) => options.log?.("could not merge the vector index; it keeps answering as it was", error));
    const done = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
      .then(() => {
        if (!graph || partitions.get(name) !== partition || revectorizing.has(userId)) {
          if (!graph && !stopping) mergeFailedAt.set(name, Date.now());
          return partition.abandonMerge();
        }
        try {
          partition.finishMerge(graph);
        } catch (error) {
          mergeFailedAt.set(name, Date.now());
          options.log?.("could not read back a merged vector index", error);
          return partition.abandonMerge();
        }
        partition.save(base);
      })
      .catch((error: unknown) => options.log?.("could not save a merged vector index; shutdown saves it", error))
      .finally(() => merges.delete(name));
    const stop = () => {
      stopping = true;
      void worker.terminate();
    };
    merges.set(name, { stop, done });
  }

  function partitionFor(embedderId: string, userId: number): VectorPartition | null {
    const cached = partitions.get(key(embedderId, userId));
    if (cached) return cached;
    if (building.has(key(embedderId, userId))) return null;
    const summary = summaryOf.get(embedderId, userId) as ReturnType<VectorPartition["summary"]>;
    if (summary.count === 0) return null;
    const saved = options.indexDir ? VectorPartition.load(basePath(embedderId, userId), sourceFor(embedderId), partitionLimits) : null;
    if (saved && saved.dimensions === (dimensionsOf.get(embedderId, userId) as { dimensions: number }).dimensions) {
      const current = saved.summary();
      if (current.count === summary.count && current.maxChunkId === summary.maxChunkId && current.sumChunkIds === summary.sumChunkIds) {
        partitions.set(key(embedderId, userId), saved);
        mergeIfDue(embedderId, userId, saved);
        return saved;
      }
      const caughtUp = catchUp(embedderId, userId, saved);
      if (caughtUp !== "rebuild") return caughtUp;
    }
    if (summary.count <= syncBuildLimit) {
      let partition: VectorPartition | null = null;
      for (const row of loadRows.iterate(embedderId, userId) as Iterable<PageRow>) {
        const vector = fromBlob(row.vector);
        partition ??= new VectorPartition(vector.length, sourceFor(embedderId), partitionLimits);
        partition.add(row.chunkId, row.conversationId, vector);
      }
      if (partition) partitions.set(key(embedderId, userId), partition);
      return partition;
    }
    startBuild(embedderId, userId);
    return null;
  }

  /**
   * A saved index that lags the table (the process stopped without saving what it added or removed since):
   * drops what the table no longer has and adds what it lacks, on the spot when that is little, else in the
   * background like a build. Far cheaper than rebuilding: at 100k chunks a rebuild is a minute of CPU.
   */
  function catchUp(embedderId: string, userId: number, saved: VectorPartition): VectorPartition | null | "rebuild" {
    const live = new Map(
      (liveIds.all(embedderId, userId) as { chunkId: number; conversationId: number | null }[]).map((row) => [row.chunkId, row.conversationId]),
    );
    const savedCount = saved.size;
    const missing = saved.retainLive(live);
    // An HNSW graph that is mostly deleted nodes searches poorly: start afresh.
    if (savedCount - (live.size - missing.length) > savedCount / 2) return "rebuild";
    if (missing.length > syncCatchUpLimit) {
      startBuild(embedderId, userId, saved);
      return null;
    }
    for (const chunkId of missing) {
      const row = vectorRow.get(embedderId, chunkId) as PageRow | undefined;
      if (row) saved.add(row.chunkId, row.conversationId, fromBlob(row.vector));
    }
    partitions.set(key(embedderId, userId), saved);
    return saved;
  }

  /**
   * Builds a large partition a page at a time, yielding to the event loop between pages (HNSW over 100k
   * vectors takes minutes here); searches answer from BM25 alone until it is ready. Rows added meanwhile have
   * larger chunk ids, so the paging loop picks them up before it ends.
   */
  function startBuild(embedderId: string, userId: number, seed: VectorPartition | null = null): Promise<void> {
    const name = key(embedderId, userId);
    const running = building.get(name);
    if (running) return running;
    const generation = generationOf(name);
    const build = (async () => {
      let partition = seed;
      if (partition) inBuild.set(name, partition);
      let after = 0;
      for (;;) {
        const rows = pageRows.all(embedderId, userId, after, BUILD_PAGE) as PageRow[];
        if (rows.length === 0) break;
        let sliceStart = performance.now();
        for (const row of rows) {
          if (partition?.has(row.chunkId)) continue; // read back from the saved index (catch-up)
          const vector = fromBlob(row.vector);
          if (!partition) inBuild.set(name, (partition = new VectorPartition(vector.length, sourceFor(embedderId), partitionLimits)));
          partition.add(row.chunkId, row.conversationId, vector);
          // An HNSW insert costs about 1 ms at 100k: yield often enough that requests never wait long.
          if (performance.now() - sliceStart > BUILD_SLICE_MS) {
            await nextTurn();
            sliceStart = performance.now();
          }
        }
        after = rows[rows.length - 1]!.chunkId;
        await nextTurn();
      }
      // The rows were rewritten meanwhile (reset, import, a change of dimensions): what was read may be stale.
      if (!partition || generationOf(name) !== generation) return;
      partitions.set(name, partition);
      // Saved at once (a few hundred ms at 100k), so a crash before the next clean shutdown costs no rebuild.
      if (options.indexDir && !revectorizing.has(userId)) {
        mkdirSync(options.indexDir, { recursive: true });
        partition.save(basePath(embedderId, userId));
      }
    })().finally(() => {
      building.delete(name);
      inBuild.delete(name);
    });
    building.set(name, build);
    return build;
  }

  /**
   * Deletes the user's saved indexes: before vectors under existing chunk ids are replaced (re-vectorise), which
   * a saved index could not tell from the table, so it is rebuilt rather than read back stale after a crash.
   */
  function removeSaved(userId: number, keepEmbedderId?: string) {
    if (!options.indexDir || !existsSync(options.indexDir)) return;
    const kept = keepEmbedderId === undefined ? null : `${path.basename(basePath(keepEmbedderId, userId))}.`;
    for (const name of readdirSync(options.indexDir)) {
      if (name.startsWith(`${userId}-`) && !(kept && name.startsWith(kept))) rmSync(path.join(options.indexDir, name), { force: true });
    }
  }

  /** Drops the user's indexes, in memory and saved (after a reset or an import rewrote their rows). */
  function forgetUser(userId: number) {
    for (const name of namesOf(userId)) invalidate(name);
    removeSaved(userId);
  }

  return {
    /** Stores vectors (replacing a chunk's earlier one from the same embedder) in one transaction. */
    upsert(embedderId: string, rows: VectorRow[]) {
      if (rows.length === 0) return;
      const now = new Date().toISOString();
      sqlite.transaction(() => {
        for (const row of rows) {
          insert.run(row.chunkId, embedderId, row.vector.length, row.userId, row.conversationId, toBlob(row.vector), now);
        }
      })();
      for (const row of rows) {
        const name = key(embedderId, row.userId);
        const existing = partitions.get(name) ?? inBuild.get(name);
        if (existing && existing.dimensions === row.vector.length) existing.add(row.chunkId, row.conversationId, Float32Array.from(row.vector));
        else if (existing) invalidate(name);
      }
      for (const userId of new Set(rows.map((row) => row.userId))) {
        const partition = partitions.get(key(embedderId, userId));
        if (partition) mergeIfDue(embedderId, userId, partition);
      }
    },

    /** The k chunks most similar to the query vector within the scope, verified against the table. */
    search(embedderId: string, query: number[], scope: SearchScope, k: number): { chunkId: number; similarity: number }[] {
      const partition = partitionFor(embedderId, scope.userId);
      if (!partition || partition.dimensions !== query.length) return [];
      const hits = partition.search(Float32Array.from(query), { conversationId: scope.conversationId }, k);
      if (hits.length === 0) return [];
      const live = new Set((liveOf(hits.length).all(embedderId, ...hits.map((hit) => hit.chunkId)) as { id: number }[]).map((row) => row.id));
      for (const hit of hits) if (!live.has(hit.chunkId)) partition.remove(hit.chunkId);
      return hits.filter((hit) => live.has(hit.chunkId));
    },

    /** Whether the user has any vector from this embedder (cheap: decides if a query is worth embedding). */
    hasVectors(embedderId: string, userId: number): boolean {
      const cached = partitions.get(key(embedderId, userId));
      if (cached) return cached.size > 0;
      return Boolean(anyVector.get(embedderId, userId));
    },

    /** Resolves once the user's partition is in memory (building it if needed): start-up warm-up, tests, benches. */
    async warm(embedderId: string, userId: number): Promise<void> {
      if (partitionFor(embedderId, userId)) return;
      await building.get(key(embedderId, userId));
    },

    /** Stops merges still running (at shutdown, before `persist`): their partitions are saved as they are. */
    async stopMerges(): Promise<void> {
      const running = [...merges.values()];
      for (const { stop } of running) stop();
      await Promise.all(running.map(({ done }) => done));
    },

    mergesRunning: () => merges.size,

    /** Resolves when no merge is running (tests, benches). */
    async mergesDone(): Promise<void> {
      while (merges.size > 0) await Promise.all([...merges.values()].map(({ done }) => done));
    },

    /** Saves every HNSW partition changed since it was read or saved (at shutdown), so start-up need not rebuild them. */
    persist(): number {
      if (!options.indexDir) return 0;
      mkdirSync(options.indexDir, { recursive: true });
      let saved = 0;
      for (const [name, partition] of partitions) {
        const [userId, embedderId] = name.split("\u0000") as [string, string];
        if (revectorizing.has(Number(userId))) continue;
        if (partition.save(basePath(embedderId, Number(userId)))) saved++;
      }
      return saved;
    },

    /**
     * Deletes the user's saved indexes as a re-vectorise starts (vectors under existing chunk ids are about to be
     * replaced, which a saved index could not tell from the table), and saves nothing of theirs until
     * `forgetOtherEmbedders` says it ended: a crash meanwhile rebuilds instead of reading back old vectors.
     */
    discardSaved(userId: number) {
      revectorizing.add(userId);
      removeSaved(userId);
    },

    forgetUser,

    /** Deletes all of the user's vectors (every embedder) and their indexes; answers how many rows went. */
    deleteUser(userId: number): number {
      const removed = deleteForUser.run(userId).changes;
      forgetUser(userId);
      return removed;
    },

    /** How many of the user's vectors come from the embedder, and how many from others (left by a switch). */
    counts(userId: number, embedderId: string | null): { current: number; other: number } {
      return countsFor.get(embedderId ?? "", userId, embedderId ?? "", userId) as { current: number; other: number };
    },

    /** The users holding vectors of this embedder (whose indexes start-up loads). */
    usersWith(embedderId: string): number[] {
      return (usersWith.all(embedderId) as { userId: number }[]).map((row) => row.userId);
    },

    /** The dimensions of the user's stored vectors from this embedder, or null when there are none. */
    dimensions(userId: number, embedderId: string): number | null {
      return (dimensionsOf.get(embedderId, userId) as { dimensions: number } | undefined)?.dimensions ?? null;
    },

    /** The user's vectors of one embedder as backup rows (base64 float32), a page at a time after a chunk id. */
    exportPage(userId: number, embedderId: string, afterChunkId: number, size: number): { chunk_id: number; vector: string }[] {
      return (exportPage.all(embedderId, userId, afterChunkId, size) as { chunkId: number; vector: Buffer }[]).map((row) => ({
        chunk_id: row.chunkId,
        vector: row.vector.toString("base64"),
      }));
    },

    /** Inserts restored vectors under their chunks' new ids (synchronous, inside the caller's transaction). */
    insertRestored(
      userId: number,
      embedder: { id: string; dimensions: number },
      rows: Array<{ chunkId: number; conversationId: number | null; vector: Buffer }>,
    ): void {
      const now = new Date().toISOString();
      for (const row of rows) insert.run(row.chunkId, embedder.id, embedder.dimensions, userId, row.conversationId, row.vector, now);
    },

    /**
     * After a re-vectorise: drops the user's indexes of other embedders (their rows are gone) and keeps the
     * current one, which every upsert of the run went into, so searches need no rebuild.
     */
    forgetOtherEmbedders(userId: number, embedderId: string) {
      const kept = key(embedderId, userId);
      for (const name of namesOf(userId)) if (name !== kept) invalidate(name);
      removeSaved(userId, embedderId);
      revectorizing.delete(userId);
    },
  };
}

export type VectorStore = ReturnType<typeof createVectorStore>;
