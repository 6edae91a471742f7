import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "@sage/testkit/postgres-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK, migratePostgres } from "./migrate-postgres.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

const migrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url));
const files = readdirSync(migrationsDir)
  .filter((file) => file.endsWith(".sql"))
  .sort();

describe.skipIf(!installed)("migratePostgres", () => {
  let server: PostgresServer;
  const pools: pg.Pool[] = [];
  const temp = makeTempDir("sage-pg-migrations-");
  const poolOn = (url: string) => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    // The server's shutdown ends connections still closing (57P01); a pool without a listener throws that.
    pool.on("error", () => undefined);
    pools.push(pool);
    return pool;
  };
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await server?.stop();
    temp.remove();
  });

  it("lets two processes starting at once migrate one after the other: each file applied once, by one of them", async () => {
    const url = await server.createDatabase();
    const [first, second, holder] = [poolOn(url), poolOn(url), poolOn(url)];
    // A third session holds the lock first, so both runs are seen waiting on it before either can start.
    const held = await holder.connect();
    await held.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    const runs = Promise.all([migratePostgres(first, migrationsDir), migratePostgres(second, migrationsDir)]);
    let settled = false;
    void runs.then(
      () => (settled = true),
      () => (settled = true),
    );
    try {
      // Until both sessions wait on the lock; a run that ends first never took it.
      for (;;) {
        const { rows } = await held.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
         WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if (rows[0]!.waiting === 2) break;
        expect(settled, "a migration ran while another session held the lock").toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await held.query("SELECT to_regclass('schema_migrations') AS t")).rows[0].t).toBeNull();
    } finally {
      await held.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
      held.release();
    }
    const answers = await runs;
    expect(answers.map((names) => names.length).sort()).toEqual([0, files.length]);
    expect(answers.flat()).toEqual(files);
    const recorded = await first.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name");
    expect(recorded.rows.map((row) => row.name)).toEqual(files);
  });

  it("rolls back a failing file whole, records only those before it, and leaves the lock free", async () => {
    const url = await server.createDatabase();
    const dir = path.join(temp.dir, "failing");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "0001-good.sql"), "CREATE TABLE good (id BIGINT PRIMARY KEY);");
    writeFileSync(path.join(dir, "0002-bad.sql"), "CREATE TABLE half (id BIGINT);\nINSERT INTO missing VALUES (1);");
    const pool = poolOn(url);
    await expect(migratePostgres(pool, dir)).rejects.toThrow(/0002-bad\.sql/);
    const tables = await pool.query("SELECT to_regclass('good') IS NOT NULL AS good, to_regclass('half') IS NOT NULL AS half");
    expect(tables.rows[0]).toEqual({ good: true, half: false });
    writeFileSync(path.join(dir, "0002-bad.sql"), "CREATE TABLE half (id BIGINT);");
    // Another run goes ahead (the lock was released) and applies only what is left.
    expect(await migratePostgres(poolOn(url), dir)).toEqual(["0002-bad.sql"]);
  });
});
