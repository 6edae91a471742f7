import type { RetrievalServiceDeps } from "../retrieval.service.ts";
import type { ChunkRows, RestoredChunk } from "./chunk-store.ts";
import type { UnembeddedChunks, Vectors } from "./vectors.ts";

/**
 * The search index on one engine, as the retrieval module composes it: chunks and their words, vectors, and what
 * backups and the server's start and stop need of it. SQLite's (sqlite-search-index.ts) lives in the process beside
 * its file; PostgreSQL's (pg-search-index.ts) in the database, shared by every process on it.
 */
export interface SearchIndex {
  engine: "sqlite" | "postgres";
  chunks: ChunkRows;
  lexicalSearch: RetrievalServiceDeps["lexicalSearch"];
  vectors: Vectors;
  unembedded: UnembeddedChunks;
  /** Which vector search this index uses, in plain words (said at start-up). */
  vectorSearch: string;
  /** An item's name changed: its chunks' words are indexed again with it (SQLite's triggers do this themselves). */
  itemRenamed(itemId: number): Promise<void>;
  /** Deletes up to `limit` of the user's chunks and their vectors, in a short transaction; 0 once none is left. */
  deleteUserChunks(userId: number, limit: number): Promise<number>;
  /** Writes restored chunks and their vectors in one short transaction; answers the new chunk ids, in order. */
  insertRestored(
    userId: number,
    chunks: RestoredChunk[],
    vectors: { embedder: { id: string; dimensions: number }; rows: Array<{ chunk: number; vector: Buffer }> } | null,
  ): Promise<number[]>;
  /** After a restore rewrote the user's rows: totals the index keeps are put right. */
  repairAfterRestore(userId: number): Promise<void>;
  /** At start-up, before the first search: work a crash or an older version left due. */
  start(): Promise<void>;
  close(): Promise<void>;
}
