import type BetterSqlite3 from "better-sqlite3";
import type { SearchScope } from "./lexical-search.ts";
import type { VectorRow } from "./vector-store.ts";

/** SQLite's index answers at once (its callers rely on that, see the vectorizer's store); PostgreSQL's later. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The search index's vectors as search, the vectorizer, the vector lifecycle and backups use them, alike on both
 * engines: SQLite's in-process HNSW partitions (vector-store.ts) and PostgreSQL's table with pgvector (pg-vectors.ts).
 */
export interface Vectors {
  /** Stores vectors, replacing a chunk's earlier one from the same embedder. */
  upsert(embedderId: string, rows: VectorRow[]): Awaitable<void>;
  /** The k chunks most similar to the query vector within the scope, best first. */
  search(embedderId: string, query: number[], scope: SearchScope, k: number): Awaitable<{ chunkId: number; similarity: number }[]>;
  /** Whether the user has any vector from this embedder (cheap: decides if a query is worth embedding). */
  hasVectors(embedderId: string, userId: number): Awaitable<boolean>;
  /** How many of the user's vectors come from the embedder, and how many from others (left by a switch). */
  counts(userId: number, embedderId: string | null): Awaitable<{ current: number; other: number }>;
  /** The dimensions of the user's stored vectors from this embedder, or null when there are none. */
  dimensions(userId: number, embedderId: string): Awaitable<number | null>;
  /** The users holding vectors of this embedder (whose indexes start-up loads). */
  usersWith(embedderId: string): Awaitable<number[]>;
  /** Deletes all of the user's vectors (every embedder); answers how many went. */
  deleteUser(userId: number): Awaitable<number>;
  /** The user's vectors of one embedder as backup rows (base64 float32), a page at a time after a chunk id. */
  exportPage(userId: number, embedderId: string, afterChunkId: number, size: number): Awaitable<{ chunk_id: number; vector: string }[]>;
  /** A re-vectorise of the user starts: vectors under existing chunk ids are about to change. */
  discardSaved(userId: number): void;
  /** A re-vectorise ended: the user's vectors of other embedders are gone. */
  forgetOtherEmbedders(userId: number, embedderId: string): void;
  /** The user's rows are about to be rewritten (a restore): nothing of theirs is kept in memory. */
  forgetUser(userId: number): void;
  /** Resolves once the user's index is ready to answer (start-up warm-up, tests, benches). */
  warm(embedderId: string, userId: number): Promise<void>;
  stopMerges(): Promise<void>;
  /** Saves what is kept in memory (at shutdown); answers how many indexes were saved. */
  persist(): number;
}

/** A chunk waiting for its vector, with its item's name (embedded in front of its text). */
export interface PendingChunk {
  id: number;
  userId: number;
  conversationId: number | null;
  content: string;
  name: string;
}

/** What the vectorizer reads of the chunks, alike on both engines (SQLite's below, PostgreSQL's in pg-vectors.ts). */
export interface UnembeddedChunks {
  /** An item's chunks without a vector of the embedder, in the order of the text, after a (position, id). */
  missingForItem(
    itemId: number,
    after: { position: number; id: number },
    embedderId: string,
    limit: number,
  ): Awaitable<Array<PendingChunk & { position: number }>>;
  missingForUser(userId: number, afterId: number, embedderId: string, limit: number): Awaitable<PendingChunk[]>;
  allForUser(userId: number, afterId: number, limit: number): Awaitable<PendingChunk[]>;
  countForUser(userId: number): Awaitable<number>;
  /** Users with chunks lacking a vector of the embedder. */
  usersMissing(embedderId: string): Awaitable<number[]>;
  countMissing(userId: number, embedderId: string): Awaitable<number>;
  /**
   * Those of the chunks that still exist. SQLite answers at once, so the vectors are stored in the same tick as
   * this check and a chunk deleted meanwhile cannot slip in between.
   */
  existing(chunkIds: number[]): Awaitable<Set<number>>;
  dropOtherEmbedders(userId: number, embedderId: string): Awaitable<void>;
}

/** SQLite's: prepared statements, answered at once. */
export function sqliteUnembeddedChunks(sqlite: BetterSqlite3.Database): UnembeddedChunks {
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
  const chunkExists = sqlite.prepare("SELECT 1 FROM chunks WHERE id = ?").pluck();
  return {
    missingForItem: (itemId, after, embedderId, limit) =>
      missingForItem.all(itemId, after.position, after.id, embedderId, limit) as Array<PendingChunk & { position: number }>,
    missingForUser: (userId, afterId, embedderId, limit) => missingForUser.all(userId, afterId, embedderId, limit) as PendingChunk[],
    allForUser: (userId, afterId, limit) => allForUser.all(userId, afterId, limit) as PendingChunk[],
    countForUser: (userId) => (countForUser.get(userId) as { n: number }).n,
    usersMissing: (embedderId) => (usersMissing.all(embedderId) as { userId: number }[]).map((row) => row.userId),
    countMissing: (userId, embedderId) => (countMissing.get({ userId, embedderId }) as { n: number }).n,
    existing: (chunkIds) => new Set(chunkIds.filter((id) => chunkExists.get(id) !== undefined)),
    dropOtherEmbedders: (userId, embedderId) => void dropOtherEmbedders.run(userId, embedderId),
  };
}
