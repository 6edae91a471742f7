import type { SqlPool } from "../../../store/postgres/pg-vector-index.ts";

/**
 * Each user's count of vectors and newest chunk id per embedder, kept by statement triggers on `chunk_vectors`
 * (decision 060): what a process without pgvector reads at every search to know whether its held vectors are
 * current. Counting the user's rows instead took 9.5 ms at 10,000 vectors and grew with them. Made (and filled from
 * the rows already there, writers held off meanwhile) the first time a process opens the search index.
 */
export async function ensurePgVectorCounts(sql: SqlPool): Promise<void> {
  const { rows } = await sql.query<{ made: boolean }>("SELECT to_regclass('chunk_vector_counts') IS NOT NULL AS made");
  if (rows[0]?.made) return;
  await sql.session(async (session) => {
    await session.query("BEGIN");
    try {
      await session.query("LOCK TABLE chunk_vectors IN SHARE MODE");
      await session.query(`CREATE TABLE chunk_vector_counts (
        embedder_id TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        vectors BIGINT NOT NULL,
        max_chunk_id BIGINT NOT NULL,
        PRIMARY KEY (embedder_id, user_id)
      )`);
      // The newest id only grows: after a removal it may name a chunk gone, which a count that fell already says.
      await session.query(`CREATE FUNCTION chunk_vector_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO chunk_vector_counts AS c (embedder_id, user_id, vectors, max_chunk_id)
            SELECT embedder_id, user_id, count(*), max(chunk_id) FROM added GROUP BY embedder_id, user_id
          ON CONFLICT (embedder_id, user_id)
            DO UPDATE SET vectors = c.vectors + EXCLUDED.vectors, max_chunk_id = greatest(c.max_chunk_id, EXCLUDED.max_chunk_id);
          RETURN NULL;
        END $$`);
      await session.query(`CREATE FUNCTION chunk_vector_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE chunk_vector_counts c SET vectors = c.vectors - r.n
            FROM (SELECT embedder_id, user_id, count(*) AS n FROM removed GROUP BY embedder_id, user_id) r
            WHERE c.embedder_id = r.embedder_id AND c.user_id = r.user_id;
          RETURN NULL;
        END $$`);
      await session.query(`CREATE TRIGGER chunk_vector_counts_added AFTER INSERT ON chunk_vectors
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION chunk_vector_counts_added()`);
      await session.query(`CREATE TRIGGER chunk_vector_counts_removed AFTER DELETE ON chunk_vectors
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION chunk_vector_counts_removed()`);
      await session.query(`INSERT INTO chunk_vector_counts (embedder_id, user_id, vectors, max_chunk_id)
        SELECT embedder_id, user_id, count(*), max(chunk_id) FROM chunk_vectors GROUP BY embedder_id, user_id`);
      await session.query("COMMIT");
    } catch (error) {
      await session.query("ROLLBACK");
      throw error;
    }
  });
}
