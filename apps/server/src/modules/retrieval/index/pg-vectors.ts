import type { PgVectorIndex, SqlClient } from "../../../store/postgres/pg-vector-index.ts";
import type { SearchScope } from "./lexical-search.ts";
import { dot } from "./vector-partition.ts";
import { fromBlob, toBlob, type VectorRow } from "./vector-store.ts";
import type { PendingChunk, UnembeddedChunks, Vectors } from "./vectors.ts";

/** Rows a full read of a user's vectors takes at a time (about 15 MB of 768-d float32). */
const READ_PAGE = 5_000;

/** A user's vectors of one embedder, held by this process for exact search when the database has no pgvector. */
interface HeldVectors {
  ids: number[];
  conversations: Array<number | null>;
  vectors: Float32Array[];
  count: number;
  maxId: number;
}

/**
 * The search index's vectors on PostgreSQL (decision 060). `chunk_vectors` holds every float32 vector, as on SQLite:
 * the truth that backups and `migrate` copy. With pgvector, each is also written to its HNSW index (decision 056)
 * and searches go there. Without it, each process holds a user's vectors in memory and searches them exactly; a
 * count and the newest id (one row of `chunk_vector_counts`), read at every search, tell it of vectors another process
 * added (read then) or removed (all read again), so a note added on one process is found on another at its next search.
 */
export function createPgVectors(sql: SqlClient, pgvector: PgVectorIndex | null): Vectors & PgVectorWrites {
  const held = new Map<string, HeldVectors>();
  const key = (embedderId: string, userId: number) => `${userId}\u0000${embedderId}`;
  const forgetUser = (userId: number) => {
    for (const name of held.keys()) if (name.startsWith(`${userId}\u0000`)) held.delete(name);
  };

  async function readVectors(embedderId: string, userId: number, afterId: number, into: HeldVectors) {
    for (let after = afterId; ;) {
      const { rows } = await sql.query<{ chunkId: number; conversationId: number | null; vector: Buffer }>(
        `SELECT chunk_id AS "chunkId", conversation_id AS "conversationId", vector FROM chunk_vectors
         WHERE embedder_id = $1 AND user_id = $2 AND chunk_id > $3 ORDER BY chunk_id LIMIT ${READ_PAGE}`,
        [embedderId, userId, after],
      );
      for (const row of rows) {
        into.ids.push(Number(row.chunkId));
        into.conversations.push(row.conversationId === null ? null : Number(row.conversationId));
        into.vectors.push(fromBlob(row.vector));
      }
      if (rows.length < READ_PAGE) return;
      after = Number(rows.at(-1)!.chunkId);
    }
  }

  /** The user's vectors as this process holds them, brought up to the table's state first. */
  async function heldVectors(embedderId: string, userId: number): Promise<HeldVectors> {
    const { rows } = await sql.query<{ count: number; maxId: number | null }>(
      `SELECT vectors AS count, max_chunk_id AS "maxId" FROM chunk_vector_counts WHERE embedder_id = $1 AND user_id = $2`,
      [embedderId, userId],
    );
    const count = Number(rows[0]?.count ?? 0);
    const maxId = Number(rows[0]?.maxId ?? 0);
    const name = key(embedderId, userId);
    let current = held.get(name);
    if (current && current.count === count && current.maxId === maxId) return current;
    if (current && maxId > current.maxId) {
      // Added since: read what is new, and keep it only if nothing went meanwhile.
      const before = current.ids.length;
      await readVectors(embedderId, userId, current.maxId, current);
      if (current.ids.length === count) {
        current.count = count;
        current.maxId = maxId;
        return current;
      }
      current.ids.length = before;
    }
    current = { ids: [], conversations: [], vectors: [], count, maxId };
    await readVectors(embedderId, userId, 0, current);
    current.count = current.ids.length;
    current.maxId = current.ids.at(-1) ?? 0;
    held.set(name, current);
    return current;
  }

  /** The k nearest of the user's vectors, best first: a bounded list, not a sort of them all (65 ms at 100k x 768 here, against 97; a dot product of four sums at once halves it). */
  async function exactSearch(embedderId: string, query: number[], scope: SearchScope, k: number) {
    if (k <= 0) return [];
    const user = await heldVectors(embedderId, scope.userId);
    const wanted = Float32Array.from(query);
    const best: { chunkId: number; similarity: number }[] = [];
    for (let index = 0; index < user.ids.length; index++) {
      const conversation = user.conversations[index];
      if (scope.conversationId === null && conversation !== null) continue;
      if (scope.conversationId !== undefined && scope.conversationId !== null && conversation !== null && conversation !== scope.conversationId) continue;
      const vector = user.vectors[index]!;
      if (vector.length !== wanted.length) continue;
      const similarity = dot(vector, wanted);
      if (best.length === k && similarity <= best[k - 1]!.similarity) continue;
      // Held in chunk id order, so of equal similarities the lower id stays ahead.
      let place = best.length;
      while (place > 0 && best[place - 1]!.similarity < similarity) place--;
      best.splice(place, 0, { chunkId: user.ids[index]!, similarity });
      if (best.length > k) best.pop();
    }
    return best;
  }

  return {
    /** Stores vectors of chunks that still exist (their rows held while written, so none is deleted in between). */
    async upsert(embedderId: string, rows: VectorRow[]) {
      if (rows.length === 0) return;
      const now = new Date().toISOString();
      const { rows: stored } = await sql.query<{ chunkId: number }>(
        `INSERT INTO chunk_vectors (chunk_id, embedder_id, dimensions, user_id, conversation_id, vector, created_at)
         SELECT c.id, $1, v.dimensions, c.user_id, v.conversation_id, v.vector, $2
         FROM unnest($3::bigint[], $4::bigint[], $5::bytea[], $6::bigint[]) AS v(chunk_id, conversation_id, vector, dimensions)
         JOIN chunks c ON c.id = v.chunk_id
         FOR KEY SHARE OF c
         ON CONFLICT (chunk_id, embedder_id) DO UPDATE
           SET vector = excluded.vector, dimensions = excluded.dimensions, conversation_id = excluded.conversation_id
         RETURNING chunk_id AS "chunkId"`,
        [
          embedderId,
          now,
          rows.map((row) => row.chunkId),
          rows.map((row) => row.conversationId),
          rows.map((row) => toBlob(row.vector)),
          rows.map((row) => row.vector.length),
        ],
      );
      if (!pgvector || stored.length === 0) return;
      const kept = new Set(stored.map((row) => Number(row.chunkId)));
      await pgvector.upsert(
        embedderId,
        rows.filter((row) => kept.has(row.chunkId)),
      );
    },

    search: (embedderId, query, scope, k) => (pgvector ? pgvector.search(embedderId, query, scope, k) : exactSearch(embedderId, query, scope, k)),

    async hasVectors(embedderId, userId) {
      const { rows } = await sql.query("SELECT 1 FROM chunk_vectors WHERE embedder_id = $1 AND user_id = $2 LIMIT 1", [embedderId, userId]);
      return rows.length > 0;
    },

    async counts(userId, embedderId) {
      const { rows } = await sql.query<{ current: number; other: number }>(
        `SELECT count(*) FILTER (WHERE embedder_id = $2) AS current, count(*) FILTER (WHERE embedder_id <> $2) AS other
         FROM chunk_vectors WHERE user_id = $1`,
        [userId, embedderId ?? ""],
      );
      return { current: Number(rows[0]?.current ?? 0), other: Number(rows[0]?.other ?? 0) };
    },

    async dimensions(userId, embedderId) {
      const { rows } = await sql.query<{ dimensions: number }>("SELECT dimensions FROM chunk_vectors WHERE embedder_id = $1 AND user_id = $2 LIMIT 1", [
        embedderId,
        userId,
      ]);
      return rows[0] ? Number(rows[0].dimensions) : null;
    },

    async usersWith(embedderId) {
      const { rows } = await sql.query<{ userId: number }>(`SELECT DISTINCT user_id AS "userId" FROM chunk_vectors WHERE embedder_id = $1 ORDER BY 1`, [
        embedderId,
      ]);
      return rows.map((row) => Number(row.userId));
    },

    async deleteUser(userId) {
      const { rows } = await sql.query<{ n: number }>(
        `WITH gone AS (DELETE FROM chunk_vectors WHERE user_id = $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
        [userId],
      );
      await pgvector?.deleteUser(userId);
      forgetUser(userId);
      return Number(rows[0]?.n ?? 0);
    },

    async exportPage(userId, embedderId, afterChunkId, size) {
      const { rows } = await sql.query<{ chunkId: number; vector: Buffer }>(
        `SELECT chunk_id AS "chunkId", vector FROM chunk_vectors WHERE embedder_id = $1 AND user_id = $2 AND chunk_id > $3 ORDER BY chunk_id LIMIT $4`,
        [embedderId, userId, afterChunkId, size],
      );
      return rows.map((row) => ({ chunk_id: Number(row.chunkId), vector: Buffer.from(row.vector).toString("base64") }));
    },

    // Vectors rewritten under the same ids (a re-vectorise) must be read again.
    discardSaved: forgetUser,
    forgetOtherEmbedders: (userId) => forgetUser(userId),
    forgetUser,
    async warm(embedderId, userId) {
      if (!pgvector) await heldVectors(embedderId, userId);
    },
    stopMerges: async () => undefined,
    persist: () => 0,

    async insertRestored(client, userId, embedder, rows) {
      if (rows.length === 0) return;
      await client.query(
        `INSERT INTO chunk_vectors (chunk_id, embedder_id, dimensions, user_id, conversation_id, vector, created_at)
         SELECT v.chunk_id, $1, $2, $3, v.conversation_id, v.vector, $4
         FROM unnest($5::bigint[], $6::bigint[], $7::bytea[]) AS v(chunk_id, conversation_id, vector)`,
        [
          embedder.id,
          embedder.dimensions,
          userId,
          new Date().toISOString(),
          rows.map((row) => row.chunkId),
          rows.map((row) => row.conversationId),
          rows.map((row) => row.vector),
        ],
      );
    },

    /** With pgvector, the vectors it lacks (copied by `migrate`, or written while it was absent) are added to it. */
    async fillEmbeddings() {
      if (!pgvector) return 0;
      let filled = 0;
      for (;;) {
        const { rows } = await sql.query<{ chunkId: number; embedderId: string; userId: number; conversationId: number | null; vector: Buffer }>(
          `SELECT v.chunk_id AS "chunkId", v.embedder_id AS "embedderId", v.user_id AS "userId", v.conversation_id AS "conversationId", v.vector
           FROM chunk_vectors v WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = v.chunk_id AND e.embedder_id = v.embedder_id)
           ORDER BY v.embedder_id, v.chunk_id LIMIT 500`,
        );
        if (rows.length === 0) return filled;
        for (const embedderId of new Set(rows.map((row) => row.embedderId))) {
          const ofEmbedder = rows.filter((row) => row.embedderId === embedderId);
          const vectorRows = ofEmbedder.map((row) => ({
            chunkId: Number(row.chunkId),
            userId: Number(row.userId),
            conversationId: row.conversationId,
            vector: fromBlob(row.vector),
          }));
          await pgvector.upsert(embedderId, vectorRows).catch((error: unknown) => {
            // A chunk deleted meanwhile (its vector row went with it): the next page no longer holds it.
            if ((error as { code?: string }).code !== "23503") throw error;
          });
        }
        filled += rows.length;
      }
    },

    async indexRestored(userId, embedderId, chunkIds) {
      if (!pgvector || chunkIds.length === 0) return;
      const { rows } = await sql.query<{ chunkId: number; conversationId: number | null; vector: Buffer }>(
        `SELECT chunk_id AS "chunkId", conversation_id AS "conversationId", vector FROM chunk_vectors
         WHERE embedder_id = $1 AND chunk_id = ANY($2::bigint[])`,
        [embedderId, chunkIds],
      );
      await pgvector.upsert(
        embedderId,
        rows.map((row) => ({ chunkId: Number(row.chunkId), userId, conversationId: row.conversationId, vector: fromBlob(row.vector) })),
      );
    },
  };
}

/** What a restore writes of PostgreSQL's vectors: in the caller's transaction, then into pgvector once committed. */
export interface PgVectorWrites {
  insertRestored(
    client: SqlClient,
    userId: number,
    embedder: { id: string; dimensions: number },
    rows: Array<{ chunkId: number; conversationId: number | null; vector: Buffer }>,
  ): Promise<void>;
  indexRestored(userId: number, embedderId: string, chunkIds: number[]): Promise<void>;
  fillEmbeddings(): Promise<number>;
}

const PENDING_COLUMNS = `c.id, c.user_id AS "userId", c.conversation_id AS "conversationId", c.content, ki.name`;
const numbered = <T extends { id: number; userId: number; conversationId: number | null }>(rows: T[]): T[] =>
  rows.map((row) => ({
    ...row,
    id: Number(row.id),
    userId: Number(row.userId),
    conversationId: row.conversationId === null ? null : Number(row.conversationId),
  }));

/** The vectorizer's reads on PostgreSQL, as SQLite's (vectors.ts `sqliteUnembeddedChunks`). */
export function pgUnembeddedChunks(sql: SqlClient, options: { embeddings: boolean }): UnembeddedChunks {
  return {
    async missingForItem(itemId, after, embedderId, limit) {
      const { rows } = await sql.query<PendingChunk & { position: number }>(
        `SELECT ${PENDING_COLUMNS}, c.position FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
         WHERE c.item_id = $1 AND (c.position, c.id) > ($2, $3)
           AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.embedder_id = $4)
         ORDER BY c.position, c.id LIMIT $5`,
        [itemId, after.position, after.id, embedderId, limit],
      );
      return numbered(rows).map((row) => ({ ...row, position: Number(row.position) }));
    },
    async missingForUser(userId, afterId, embedderId, limit) {
      const { rows } = await sql.query<PendingChunk>(
        `SELECT ${PENDING_COLUMNS} FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
         WHERE c.user_id = $1 AND c.id > $2 AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.embedder_id = $3)
         ORDER BY c.id LIMIT $4`,
        [userId, afterId, embedderId, limit],
      );
      return numbered(rows);
    },
    async allForUser(userId, afterId, limit) {
      const { rows } = await sql.query<PendingChunk>(
        `SELECT ${PENDING_COLUMNS} FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id WHERE c.user_id = $1 AND c.id > $2 ORDER BY c.id LIMIT $3`,
        [userId, afterId, limit],
      );
      return numbered(rows);
    },
    async countForUser(userId) {
      const { rows } = await sql.query<{ n: number }>("SELECT count(*) AS n FROM chunks WHERE user_id = $1", [userId]);
      return Number(rows[0]?.n ?? 0);
    },
    async usersMissing(embedderId) {
      const { rows } = await sql.query<{ userId: number }>(
        `SELECT c.user_id AS "userId" FROM (SELECT user_id, count(*) AS n FROM chunks GROUP BY user_id) c
         LEFT JOIN (SELECT user_id, count(*) AS n FROM chunk_vectors WHERE embedder_id = $1 GROUP BY user_id) v ON v.user_id = c.user_id
         WHERE c.n > coalesce(v.n, 0) ORDER BY c.user_id`,
        [embedderId],
      );
      return rows.map((row) => Number(row.userId));
    },
    async countMissing(userId, embedderId) {
      const { rows } = await sql.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM chunks WHERE user_id = $1) - (SELECT count(*) FROM chunk_vectors WHERE embedder_id = $2 AND user_id = $1) AS n`,
        [userId, embedderId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    // The vectors' write locks the chunks it stores for (pg-vectors.ts `upsert`): every chunk is passed on.
    existing: async (chunkIds) => new Set(chunkIds),
    async dropOtherEmbedders(userId, embedderId) {
      await sql.query("DELETE FROM chunk_vectors WHERE user_id = $1 AND embedder_id <> $2", [userId, embedderId]);
      if (options.embeddings) await sql.query("DELETE FROM chunk_embeddings WHERE user_id = $1 AND embedder_id <> $2", [userId, embedderId]);
    },
  };
}
