import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { POSTGRES_MISSING, postgresInstalled, startPostgres } from "@sage/testkit/postgres-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unitVector } from "@sage/testkit/unit-vector";
import { openPgVectorIndex, poolSessions, type PgVectorIndex, type SqlPool } from "./pg-vector-index.ts";

const EMBEDDER = "test:embedder";

/**
 * Debian has no pgvector; PGlite (PostgreSQL 17 in WebAssembly) carries it. Its build has no ICU, which SAGE's schema
 * uses for usernames, so the chunks table here is only what the vector SQL refers to.
 */
describe("vector search in PostgreSQL with pgvector (PGlite)", () => {
  let db: PGlite;
  let client: SqlPool;
  let index: PgVectorIndex;
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    await db.exec("CREATE TABLE chunks (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL)");
    client = { query: (text, params) => db.query(text, params), session: (work) => work(client) };
    index = (await openPgVectorIndex(client))!;
  });
  afterAll(() => db?.close());

  async function addChunks(rows: { chunkId: number; userId: number; conversationId?: number | null; vector: Float32Array }[]) {
    for (let at = 0; at < rows.length; at += 500) {
      const page = rows.slice(at, at + 500);
      await db.query(`INSERT INTO chunks (id, user_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])`, [
        page.map((row) => row.chunkId),
        page.map((row) => row.userId),
      ]);
      await index.upsert(
        EMBEDDER,
        page.map((row) => ({ ...row, conversationId: row.conversationId ?? null })),
      );
    }
  }

  it("finds a user's nearest chunks and never another user's, within a conversation's scope", async () => {
    const rows = [];
    for (let id = 1; id <= 900; id++) rows.push({ chunkId: id, userId: (id % 3) + 1, conversationId: id % 10 === 0 ? 7 : null, vector: unitVector(id) });
    // The same text stored by another user: the nearest possible vector, which user 1 must still never see.
    rows.push({ chunkId: 901, userId: 2, vector: unitVector(42) });
    await addChunks(rows);

    const own = await index.search(EMBEDDER, unitVector(42), { userId: 1 }, 5);
    expect(own[0]).toMatchObject({ chunkId: 42 });
    expect(own[0]!.similarity).toBeCloseTo(1, 5);
    expect(own.map((hit) => hit.chunkId)).not.toContain(901);
    expect(own.every((hit) => hit.chunkId % 3 === 0)).toBe(true); // user 1's ids

    expect((await index.search(EMBEDDER, unitVector(30), { userId: 1, conversationId: 7 }, 1))[0]!.chunkId).toBe(30);
    const elsewhere = await index.search(EMBEDDER, unitVector(30), { userId: 1, conversationId: 8 }, 5);
    expect(elsewhere.map((hit) => hit.chunkId)).not.toContain(30);
    expect((await index.search(EMBEDDER, unitVector(30), { userId: 1, conversationId: null }, 5)).map((hit) => hit.chunkId)).not.toContain(30);

    await db.query("DELETE FROM chunks WHERE id = 42");
    expect((await index.search(EMBEDDER, unitVector(42), { userId: 1 }, 5)).map((hit) => hit.chunkId)).not.toContain(42);
  });

  it("finds vectors too large for pgvector's index (4,096 dimensions) by scanning the user's rows", async () => {
    const rows = [];
    for (let id = 50_001; id <= 50_040; id++) rows.push({ chunkId: id, userId: 20, vector: unitVector(id, 4096) });
    await db.query(`INSERT INTO chunks (id, user_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])`, [
      rows.map((row) => row.chunkId),
      rows.map((row) => row.userId),
    ]);
    await index.upsert(
      "test:large",
      rows.map((row) => ({ ...row, conversationId: null })),
    );
    const [best] = await index.search("test:large", unitVector(50_017, 4096), { userId: 20 }, 3);
    expect(best).toMatchObject({ chunkId: 50_017 });
    expect(best!.similarity).toBeCloseTo(1, 5);
  });

  it("finds at least 95% of the exact ten nearest when the user's chunks are a third of the table", async () => {
    const dimensions = 32;
    const rows = [];
    for (let id = 10_001; id <= 12_400; id++) rows.push({ chunkId: id, userId: 10 + (id % 3), vector: unitVector(id, dimensions) });
    await addChunks(rows);
    const mine = rows.filter((row) => row.userId === 10);
    let found = 0;
    const queries = 20;
    for (let query = 0; query < queries; query++) {
      const probe = unitVector(900_000 + query, dimensions);
      const score = (row: { vector: Float32Array }) => row.vector.reduce((sum, value, at) => sum + value * probe[at]!, 0);
      const exact = new Set(
        [...mine]
          .sort((a, b) => score(b) - score(a))
          .slice(0, 10)
          .map((row) => row.chunkId),
      );
      const hits = await index.search(EMBEDDER, probe, { userId: 10 }, 10);
      found += hits.filter((hit) => exact.has(hit.chunkId)).length;
    }
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.95);
  });
});

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

describe.skipIf(!installed)("PostgreSQL without pgvector (Debian's PostgreSQL 15)", () => {
  it("answers no pgvector index, so SAGE keeps its own", async () => {
    const server = await startPostgres();
    const pool = new pg.Pool({ connectionString: server.url });
    pool.on("error", () => undefined);
    try {
      expect(await openPgVectorIndex(poolSessions(pool))).toBeNull();
    } finally {
      await pool.end();
      await server.stop();
    }
  });
});
