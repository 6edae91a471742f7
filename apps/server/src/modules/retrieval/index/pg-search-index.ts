import type { Kysely } from "kysely";
import { openPgVectorIndex, type SqlPool } from "../../../store/postgres/pg-vector-index.ts";
import type { Database } from "../../../store/schema.ts";
import { createPgChunkStore } from "./pg-chunk-store.ts";
import { openPgLexicalIndex } from "./pg-lexical-index.ts";
import { ensurePgVectorCounts } from "./pg-vector-counts.ts";
import { createPgVectors, pgUnembeddedChunks } from "./pg-vectors.ts";
import type { SearchIndex } from "./search-index.ts";

/** The advisory lock under which a process makes the search index's tables (the migrations' lock is the one before). */
const SEARCH_INDEX_LOCK = 3_417_021_035;

export const PGVECTOR_SEARCH = "pgvector (an HNSW index inside PostgreSQL)";
export const EXACT_SEARCH = "exact search in each SAGE process (pgvector is not installed in this PostgreSQL)";

/**
 * The search index on PostgreSQL (decisions 056, 059, 060): chunks and their words (`chunk_terms`, BM25 in SQL) and
 * vectors (`chunk_vectors`, with pgvector's HNSW index when the extension is there) all live in the database, so
 * every SAGE process on it searches the same index: what one process stores, another finds at its next search.
 */
export async function openPgSearchIndex(store: { db: Kysely<Database>; sql: SqlPool }): Promise<SearchIndex> {
  const { db, sql } = store;
  // Processes starting together would make the index's tables at once, and CREATE ... IF NOT EXISTS is not safe
  // against that in PostgreSQL ("type already exists"): one at a time, under a lock of this session.
  const underLock = <T>(work: () => Promise<T>) =>
    sql.session(async (session) => {
      await session.query("SELECT pg_advisory_lock($1)", [SEARCH_INDEX_LOCK]);
      try {
        return await work();
      } finally {
        await session.query("SELECT pg_advisory_unlock($1)", [SEARCH_INDEX_LOCK]);
      }
    });
  const { words, pgvector } = await underLock(async () => {
    await ensurePgVectorCounts(sql);
    return { words: await openPgLexicalIndex(sql), pgvector: await openPgVectorIndex(sql) };
  });
  const chunks = createPgChunkStore(db, words);
  const vectors = createPgVectors(sql, pgvector);
  return {
    engine: "postgres",
    chunks,
    lexicalSearch: (terms, scope, limit, options) => words.search(terms, scope, limit, options),
    vectors,
    unembedded: pgUnembeddedChunks(sql, { embeddings: pgvector !== null }),
    vectorSearch: pgvector ? PGVECTOR_SEARCH : EXACT_SEARCH,
    async itemRenamed(itemId) {
      const { rows } = await sql.query<{ id: number }>("SELECT id FROM chunks WHERE item_id = $1", [itemId]);
      await words.indexChunks(rows.map((row) => Number(row.id)));
    },
    deleteUserChunks: (userId, limit) => chunks.deleteUserBatch(userId, limit),
    async insertRestored(userId, rows, restoredVectors) {
      if (rows.length === 0) return [];
      const now = new Date().toISOString();
      // Chunks and their vectors in one transaction on one connection; their words and pgvector's copies after it.
      const ids = await sql.session(async (client) => {
        await client.query("BEGIN");
        try {
          const inserted = await client.query<{ id: number }>(
            `INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at)
             SELECT r.item_id, $1, r.conversation_id, r.position, r.source, r.content, $2
             FROM unnest($3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[]) WITH ORDINALITY AS r(item_id, conversation_id, position, source, content, at)
             ORDER BY r.at RETURNING id`,
            [
              userId,
              now,
              rows.map((row) => row.itemId),
              rows.map((row) => row.conversationId),
              rows.map((row) => row.position),
              rows.map((row) => row.source),
              rows.map((row) => row.content),
            ],
          );
          // Ids are drawn in the order rows are inserted, which is the order given.
          const chunkIds = inserted.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
          if (restoredVectors) {
            const placed = restoredVectors.rows.map((row) => ({
              chunkId: chunkIds[row.chunk]!,
              conversationId: rows[row.chunk]!.conversationId,
              vector: row.vector,
            }));
            await vectors.insertRestored(client, userId, restoredVectors.embedder, placed);
          }
          await client.query("COMMIT");
          return chunkIds;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      });
      await words.indexChunks(ids);
      if (restoredVectors)
        await vectors.indexRestored(
          userId,
          restoredVectors.embedder.id,
          restoredVectors.rows.map((row) => ids[row.chunk]!),
        );
      return ids;
    },
    // Every statistic is counted when searched (pg-lexical-index.ts): nothing is kept to put right.
    repairAfterRestore: async () => undefined,
    // Under the same lock: filling an empty word index drops and remakes its GIN index, which two processes must not
    // do at once.
    start: () =>
      underLock(async () => {
        await words.indexMissing();
        await vectors.fillEmbeddings();
      }),
    close: async () => undefined,
  };
}
