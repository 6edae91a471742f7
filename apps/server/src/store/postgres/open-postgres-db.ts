import { fileURLToPath } from "node:url";
import { CamelCasePlugin, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "../schema.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { poolSessions, type SqlPool } from "./pg-vector-index.ts";

// Beside this file in the source; in the bundle (dist/, flat) build.mjs copies them to dist/postgres-migrations, since
// dist/migrations holds SQLite's.
const defaultMigrationsDir = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./migrations/" : "./postgres-migrations/", import.meta.url));

const INT8 = 20; // BIGINT columns, count(*)
const NUMERIC = 1700; // sum() and avg() of integers

/**
 * SQLite hands integers back as JS numbers; pg gives int8 and numeric as strings (they may exceed 2^53). One code
 * path needs numbers from both, and SAGE's integers (ids, sizes, milliseconds) stay far below 2^53. Set per pool,
 * not with pg.types.setTypeParser, so other pg users in the process are untouched.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

export interface PostgresDb {
  db: Kysely<Database>;
  /** The same pool for the search index's own SQL (pg-lexical-index.ts, pg-vector-index.ts). */
  sql: SqlPool;
  /** Ends every connection of the pool. */
  close(): Promise<void>;
}

/** Opens a pool on a `postgres://` URL, brings the schema up to date, and answers Kysely over it. */
export async function openPostgresDb(options: {
  url: string;
  migrationsDir?: string;
  maxConnections?: number;
  /** An idle connection was lost (the database restarted, a network cut): the pool replaces it at the next query. */
  onConnectionLost?: (error: Error) => void;
}): Promise<PostgresDb> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, types });
  // Without a listener, an idle connection's error (57P01 when the database shuts down) would end the process.
  pool.on("error", (error) => options.onConnectionLost?.(error));
  try {
    await migratePostgres(pool, options.migrationsDir ?? defaultMigrationsDir);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  return { db, sql: poolSessions(pool), close: () => db.destroy() };
}
