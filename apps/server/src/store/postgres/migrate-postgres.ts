import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/** Any fixed number: the session-level advisory lock every SAGE process takes to migrate (one at a time). */
export const MIGRATION_LOCK = 3_417_021_034;

/**
 * The PostgreSQL twin of migrate.ts: applies `NNNN-name.sql` files in name order, each in its own transaction,
 * recording them in `schema_migrations`. The whole run holds an advisory lock, so processes starting together
 * migrate one after another: the later ones wait, then find every file recorded. Answers the names newly applied.
 */
export async function migratePostgres(target: pg.Pool | pg.ClientBase, migrationsDir: string): Promise<string[]> {
  const files = readdirSync(migrationsDir)
    .filter((file) => /^\d{4}-[\w-]+\.sql$/.test(file))
    .sort();
  // A session-level lock belongs to one connection: a pool lends one for the whole run.
  const client = target instanceof pg.Pool ? await target.connect() : target;
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      // Inside the lock: two concurrent CREATE TABLE IF NOT EXISTS can still collide in PostgreSQL's catalog.
      await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
      const { rows } = await client.query<{ name: string }>("SELECT name FROM schema_migrations");
      const applied = new Set(rows.map((row) => row.name));
      const newlyApplied: string[] = [];
      for (const file of files) {
        if (applied.has(file)) continue;
        const sql = readFileSync(path.join(migrationsDir, file), "utf8");
        await client.query("BEGIN");
        try {
          await client.query(sql);
          await client.query("INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)", [file, new Date().toISOString()]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw new Error(`PostgreSQL migration ${file} failed: ${(error as Error).message}`, { cause: error });
        }
        newlyApplied.push(file);
      }
      return newlyApplied;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    }
  } finally {
    if (target instanceof pg.Pool) (client as pg.PoolClient).release();
  }
}
