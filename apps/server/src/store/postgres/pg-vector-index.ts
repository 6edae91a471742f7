import { createHash } from "node:crypto";
import type pg from "pg";

/** What the vector SQL needs of a connection: pg's Client and PGlite (tests) both answer this. */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/** A pool's queries, and one connection for the few statements that must share it (`poolSessions` for pg). */
export interface SqlPool extends SqlClient {
  session<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
}

/** pg's answers, as the vector SQL reads them (its row type is pg's own). */
const asClient = (queryable: pg.Pool | pg.PoolClient): SqlClient => ({
  query: async <R>(text: string, params?: unknown[]) => ({ rows: (await queryable.query(text, params)).rows as R[] }),
});

export const poolSessions = (pool: pg.Pool): SqlPool => ({
  ...asClient(pool),
  async session(work) {
    const client = await pool.connect();
    try {
      return await work(asClient(client));
    } finally {
      client.release();
    }
  },
});

export interface EmbeddingRow {
  chunkId: number;
  userId: number;
  conversationId: number | null;
  vector: ArrayLike<number>;
}

export type VectorScope = { userId: number; conversationId?: number | null };

/** Candidates the HNSW index proposes per result wanted; they are rescored exactly (as decision 050 does in usearch). */
const CANDIDATES_PER_RESULT = 4;
/** pgvector's limit for an HNSW index over half vectors. */
const HNSW_MAX_DIMENSIONS = 4_000;
const MIN_CANDIDATES = 40;

export const PGVECTOR_MISSING = "pgvector is not installed in this PostgreSQL: vector search runs in SAGE's own index instead";

const literal = (vector: ArrayLike<number>) => `[${Array.from(vector).join(",")}]`;

/**
 * Chunk vectors searched inside PostgreSQL with pgvector (decision 056). `chunk_embeddings` holds each chunk's vector
 * as half-precision (`halfvec`, 2 bytes a dimension) under one HNSW index per embedder (a partial index on an
 * expression of the embedder's dimensions); the float32 vectors stay in `chunk_vectors`, the truth that backups and
 * `migrate` copy. A search asks the index for a few times more candidates than wanted, within the user's own rows
 * (pgvector 0.8's iterative scan keeps looking until enough pass that filter), then orders them by the exact float32
 * similarity. Null when the database has no pgvector.
 */
export async function openPgVectorIndex(client: SqlPool): Promise<PgVectorIndex | null> {
  const { rows } = await client.query<{ version: string | null }>("SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'");
  if (!rows[0]?.version) return null;
  await client.query("CREATE EXTENSION IF NOT EXISTS vector");
  await client.query(
    `CREATE TABLE IF NOT EXISTS chunk_embeddings (
       chunk_id BIGINT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
       embedder_id TEXT NOT NULL,
       user_id BIGINT NOT NULL,
       conversation_id BIGINT,
       embedding halfvec NOT NULL,
       vector BYTEA NOT NULL,
       PRIMARY KEY (chunk_id, embedder_id)
     )`,
  );
  const indexed = new Set<string>();
  const indexName = (embedderId: string, dimensions: number) =>
    `chunk_embeddings_hnsw_${createHash("sha256").update(`${embedderId}\u0000${dimensions}`).digest("hex").slice(0, 16)}`;
  const typed = (dimensions: number) => `embedding::halfvec(${dimensions})`;

  /**
   * The embedder's HNSW index, made as its first vectors are stored (searches never build it; without it they scan).
   * pgvector indexes half vectors of at most 4,000 dimensions: larger ones are searched by a scan of the user's rows.
   * Two processes making it at once: the one that loses finds it made.
   */
  async function ensureIndex(embedderId: string, dimensions: number) {
    const name = indexName(embedderId, dimensions);
    if (indexed.has(name) || dimensions > HNSW_MAX_DIMENSIONS) return;
    try {
      await client.query(
        `CREATE INDEX IF NOT EXISTS ${name} ON chunk_embeddings USING hnsw ((${typed(dimensions)}) halfvec_cosine_ops)
         WHERE embedder_id = '${embedderId.replaceAll("'", "''")}' AND vector_dims(embedding) = ${dimensions}`,
      );
    } catch (error) {
      if (!["23505", "42P07"].includes(String((error as { code?: unknown }).code))) throw error;
    }
    indexed.add(name);
  }

  return {
    async upsert(embedderId: string, rows: EmbeddingRow[]): Promise<void> {
      if (rows.length === 0) return;
      const dimensions = rows[0]!.vector.length;
      await ensureIndex(embedderId, dimensions);
      const values: unknown[] = [];
      const tuples = rows.map((row, index) => {
        values.push(row.chunkId, embedderId, row.userId, row.conversationId, literal(row.vector), Buffer.from(Float32Array.from(row.vector).buffer));
        const at = index * 6;
        return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::halfvec, $${at + 6})`;
      });
      await client.query(
        `INSERT INTO chunk_embeddings (chunk_id, embedder_id, user_id, conversation_id, embedding, vector) VALUES ${tuples.join(", ")}
         ON CONFLICT (chunk_id, embedder_id) DO UPDATE SET embedding = excluded.embedding, vector = excluded.vector, conversation_id = excluded.conversation_id`,
        values,
      );
    },

    /** The k chunks of the user (and of the conversation, with the user's own) most similar to the query, best first. */
    async search(embedderId: string, query: ArrayLike<number>, scope: VectorScope, k: number): Promise<{ chunkId: number; similarity: number }[]> {
      const dimensions = query.length;
      const conversation =
        scope.conversationId === undefined
          ? ""
          : scope.conversationId === null
            ? "AND conversation_id IS NULL"
            : "AND (conversation_id IS NULL OR conversation_id = $5)";
      const params: unknown[] = [literal(query), embedderId, scope.userId, Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_RESULT)];
      if (scope.conversationId !== undefined && scope.conversationId !== null) params.push(scope.conversationId);
      // One transaction on one connection, so the search settings hold for this query and end with it.
      const rows = await client.session(async (session) => {
        await session.query("BEGIN");
        try {
          await session.query("SET LOCAL hnsw.iterative_scan = relaxed_order");
          await session.query("SET LOCAL hnsw.ef_search = 100");
          const found = await session.query<{ chunkId: string | number; vector: Uint8Array }>(
            `SELECT chunk_id AS "chunkId", vector FROM chunk_embeddings
             WHERE embedder_id = $2 AND user_id = $3 AND vector_dims(embedding) = ${dimensions} ${conversation}
             ORDER BY ${typed(dimensions)} <=> $1::halfvec(${dimensions}) LIMIT $4`,
            params,
          );
          await session.query("COMMIT");
          return found.rows;
        } catch (error) {
          await session.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      });
      const exact = rows.map((row) => {
        const stored = new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength));
        let similarity = 0;
        for (let index = 0; index < dimensions; index++) similarity += stored[index]! * query[index]!;
        return { chunkId: Number(row.chunkId), similarity };
      });
      return exact.sort((a, b) => b.similarity - a.similarity).slice(0, k);
    },

    async deleteUser(userId: number): Promise<void> {
      await client.query("DELETE FROM chunk_embeddings WHERE user_id = $1", [userId]);
    },
  };
}

export interface PgVectorIndex {
  upsert(embedderId: string, rows: EmbeddingRow[]): Promise<void>;
  search(embedderId: string, query: ArrayLike<number>, scope: VectorScope, k: number): Promise<{ chunkId: number; similarity: number }[]>;
  deleteUser(userId: number): Promise<void>;
}
