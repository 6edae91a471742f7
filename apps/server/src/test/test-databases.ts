import { makeTempDir } from "@sage/testkit/temp-dir";
import { POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "@sage/testkit/postgres-server";
import type { Kysely } from "kysely";
import { afterAll, afterEach, describe } from "vitest";
import { openStore, type Store } from "../store/open-store.ts";
import { openPostgresDb } from "../store/postgres/open-postgres-db.ts";
import type { SqlPool } from "../store/postgres/pg-vector-index.ts";
import type { Database } from "../store/schema.ts";

/** A fresh database with SAGE's schema, as the modules reach it (Kysely), on either engine. */
export interface TestDatabase {
  db: Kysely<Database>;
  /** SQLite's synchronous statements, as repositories with a SQLite implementation take them (decision 058). */
  sqlite?: Pick<Store, "prepare" | "transaction" | "sqlite" | "dataDir">;
  /** PostgreSQL's pool for the search index's own SQL. */
  sql?: SqlPool;
  /** The PostgreSQL database's URL, for a second "process" on it (another pool). */
  url?: string;
  close(): Promise<void>;
}

/** Opens a fresh test database; tests written once run on each engine (decision 053). */
export type OpenTestDatabase = () => Promise<TestDatabase>;

export const openSqliteTestDatabase: OpenTestDatabase = async () => {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  return {
    db: store.db,
    sqlite: { prepare: store.prepare, transaction: store.transaction, sqlite: store.sqlite, dataDir: store.dataDir },
    async close() {
      await store.close();
      temp.remove();
    },
  };
};

/** One PostgreSQL server for a test file, started on first use, and a fresh database on it per `open`. */
export function postgresTestDatabases(): { open: OpenTestDatabase; stop(): Promise<void> } {
  let server: Promise<PostgresServer> | undefined;
  return {
    async open() {
      const url = await (await (server ??= startPostgres())).createDatabase();
      const opened = await openPostgresDb({ url });
      return { db: opened.db, sql: opened.sql, url, close: opened.close };
    },
    async stop() {
      await (await server)?.stop();
    },
  };
}

/**
 * A describe block on PostgreSQL 15, with a fresh database per `open` on one server for the block; skipped, saying
 * why, where PostgreSQL is not installed.
 */
export function describeOnPostgres(name: string, body: (databases: { open: OpenTestDatabase }) => void): void {
  const installed = postgresInstalled();
  if (!installed) console.warn(POSTGRES_MISSING);
  describe.skipIf(!installed)(name, () => {
    const databases = postgresTestDatabases();
    afterAll(() => databases.stop());
    body(databases);
  });
}

/** Fresh databases for a describe block's tests, each closed after its test; `withUsers` gives one with accounts by id. */
export function testDatabasesOf(open: OpenTestDatabase) {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    async withUsers(...ids: number[]): Promise<Kysely<Database>> {
      return (await this.databaseWithUsers(...ids)).db;
    },
    /** The same, with what else the engine offers (SQLite's synchronous statements). */
    async databaseWithUsers(...ids: number[]): Promise<TestDatabase> {
      const database = await open();
      cleanups.push(() => database.close());
      const createdAt = "2026-01-01T00:00:00.000Z";
      await database.db
        .insertInto("users")
        .values(ids.map((id) => ({ id, username: `user${id}`, passwordHash: "x", createdAt })))
        .execute();
      return database;
    },
  };
}
