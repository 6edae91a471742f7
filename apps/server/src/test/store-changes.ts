import { sql } from "kysely";
import type { AppStore } from "../store/open-app-store.ts";

/** Stores whose tables count their row writes (PostgreSQL): installed once per store, at the first count. */
const counting = new WeakMap<AppStore, Promise<void>>();

/**
 * Makes every table of a PostgreSQL test store count the rows written to it, as SQLite's total_changes() does: a
 * row trigger advances a sequence (which no rollback undoes, like SQLite's count). Reading it is one cheap query,
 * where a digest of every table's rows, read twice a request, made route fuzzing on PostgreSQL take 194-600 s (decision 089).
 */
async function countRowWrites(store: AppStore) {
  const { db } = store;
  await sql`CREATE SEQUENCE IF NOT EXISTS sage_test_row_writes`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sage_test_count_row_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM nextval('sage_test_row_writes'); RETURN NULL; END $$`.execute(db);
  const tables = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  for (const { name } of tables.rows) {
    await sql`CREATE OR REPLACE TRIGGER sage_test_row_writes AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(name)}
      FOR EACH ROW EXECUTE FUNCTION sage_test_count_row_write()`.execute(db);
  }
}

/**
 * What a test compares before and after a request that must change nothing, on either engine: the rows written since
 * the store opened (SQLite's own count) or since counting began (PostgreSQL, by trigger).
 */
export async function storeChanges(store: AppStore): Promise<number> {
  if (store.engine === "sqlite") return (store.sqlite.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
  if (!counting.has(store)) counting.set(store, countRowWrites(store));
  await counting.get(store);
  const { rows } = await sql<{ lastValue: string; isCalled: boolean }>`SELECT last_value AS "lastValue", is_called AS "isCalled"
    FROM sage_test_row_writes`.execute(store.db);
  return rows[0]!.isCalled ? Number(rows[0]!.lastValue) : 0;
}
