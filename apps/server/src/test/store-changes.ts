import { sql } from "kysely";
import type { AppStore } from "../store/open-app-store.ts";

/**
 * What a test compares before and after a request that must change nothing, on either engine: SQLite's own count of
 * rows written since the store opened; on PostgreSQL (whose statistics are flushed late) a digest of every table's rows.
 */
export async function storeChanges(store: AppStore): Promise<number | string> {
  if (store.engine === "sqlite") return (store.sqlite.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
  const tables = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(store.db);
  const digests: string[] = [];
  for (const { name } of tables.rows) {
    const digest = await sql<{ digest: string }>`SELECT md5(coalesce(string_agg(row_text, '|' ORDER BY row_text), '')) AS digest
      FROM (SELECT x::text AS row_text FROM ${sql.table(name)} x) rows`.execute(store.db);
    digests.push(`${name}:${digest.rows[0]!.digest}`);
  }
  return digests.join(",");
}
