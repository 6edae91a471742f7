import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema.ts";

/** How many rows a table holds, on either engine; by its SQL name, so the search index's own tables count too. */
export async function rowCount(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
  return Number(rows[0]!.n);
}
