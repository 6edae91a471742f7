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
  // One statement for every table: route fuzzing takes this twice a request.
  const digests = sql.join(
    tables.rows.map(
      ({ name }) => sql`SELECT ${name}::text AS name, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM ${sql.table(name)} x`,
    ),
    sql` UNION ALL `,
  );
  const rows = await sql<{ name: string; digest: string }>`${digests}`.execute(store.db);
  return rows.rows
    .map((row) => `${row.name}:${row.digest}`)
    .sort()
    .join(",");
}
