import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openStore } from "../open-store.ts";
import { openPostgresDb } from "./open-postgres-db.ts";

/** Rows per INSERT: 500 rows of a dozen columns stay far below PostgreSQL's 65,535 parameters. */
const BATCH_ROWS = 500;

export interface CopyReport {
  tables: { name: string; rows: number }[];
  files: { count: number; bytes: number; dir: string };
}

export class CopyError extends Error {}

export const NOT_EMPTY_MESSAGE = "The PostgreSQL database already holds SAGE data. Copy into an empty database.";
export const noInstallationMessage = (dataDir: string) => `There is no SAGE installation in ${dataDir} (no sage.db). Give the data folder SAGE runs on.`;

/**
 * Copies a SQLite installation (its data folder) into an empty PostgreSQL database: every table of PostgreSQL's schema
 * row for row, in one transaction that commits only when each table's count matches, then moves each identity
 * counter past the copied ids. Stored files are copied first (byte-checked) into `filesDir` when that is another
 * folder. The search index's own tables (FTS5) have no PostgreSQL twin and are left; PostgreSQL builds its own.
 */
export async function copySqliteToPostgres(options: {
  dataDir: string;
  url: string;
  filesDir?: string;
  onTable?: (name: string, rows: number) => void;
}): Promise<CopyReport> {
  if (!existsSync(path.join(options.dataDir, "sage.db"))) throw new CopyError(noInstallationMessage(options.dataDir));
  const source = openStore({ dataDir: options.dataDir });
  try {
    const files = copyFiles(source.uploadsDir, options.filesDir ?? source.uploadsDir);
    const target = await openPostgresDb({ url: options.url });
    await target.close();
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    try {
      const tables = await copyTables(source.sqlite, client, options.onTable);
      return { tables, files };
    } finally {
      await client.end();
    }
  } finally {
    await source.close();
  }
}

async function copyTables(sqlite: ReturnType<typeof openStore>["sqlite"], client: pg.Client, onTable?: (name: string, rows: number) => void) {
  const { rows: columns } = await client.query<{ table: string; column: string; identity: string }>(
    `SELECT c.table_name AS table, c.column_name AS column, c.is_identity AS identity
     FROM information_schema.columns c JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, { names: string[]; identity: string[] }>();
  for (const { table, column, identity } of columns) {
    const entry = byTable.get(table) ?? { names: [], identity: [] };
    entry.names.push(column);
    if (identity === "YES") entry.identity.push(column);
    byTable.set(table, entry);
  }
  if (Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM users")).rows[0]!.n) > 0) throw new CopyError(NOT_EMPTY_MESSAGE);
  const report: { name: string; rows: number }[] = [];
  // One read transaction on SQLite too: every table is read as of one moment, even if a server still writes.
  sqlite.exec("BEGIN");
  sqlite.prepare("SELECT count(*) FROM users").get();
  await client.query("BEGIN");
  try {
    // Rows go in as they are, foreign keys and triggers aside (a folder may come after what it holds, and the
    // triggers' work is already in the copied rows); the counts below check the result.
    await client.query("SET LOCAL session_replication_role = replica").catch((error: unknown) => {
      throw new CopyError(`Copying needs a PostgreSQL role that may set session_replication_role (a superuser): ${(error as Error).message}`);
    });
    for (const [table, { names, identity }] of byTable) {
      const quoted = names.map((name) => `"${name}"`).join(", ");
      const read = sqlite.prepare(`SELECT ${quoted} FROM "${table}"`).raw(true);
      let batch: unknown[][] = [];
      let copied = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const values = batch.map((_, row) => `(${names.map((__, column) => `$${row * names.length + column + 1}`).join(", ")})`).join(", ");
        await client.query(`INSERT INTO "${table}" (${quoted}) OVERRIDING SYSTEM VALUE VALUES ${values}`, batch.flat());
        copied += batch.length;
        batch = [];
      };
      for (const row of read.iterate() as Iterable<unknown[]>) {
        batch.push(row);
        if (batch.length === BATCH_ROWS) await flush();
      }
      await flush();
      const counted = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`)).rows[0]!.n);
      const expected = (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
      if (counted !== expected || copied !== expected) throw new CopyError(`${table}: ${expected} rows in SQLite, ${counted} in PostgreSQL after copying`);
      for (const column of identity) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), max_id) FROM (SELECT max("${column}") AS max_id FROM "${table}") m WHERE max_id IS NOT NULL`,
          [table, column],
        );
      }
      report.push({ name: table, rows: counted });
      onTable?.(table, counted);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    sqlite.exec("COMMIT");
  }
  return report;
}

/** Copies every stored file (not the unfinished `.tmp-` ones) into `to`, checking each copy's bytes. */
function copyFiles(from: string, to: string): CopyReport["files"] {
  const names = existsSync(from) ? readdirSync(from).filter((name) => !name.startsWith(".tmp-")) : [];
  let bytes = 0;
  if (path.resolve(from) !== path.resolve(to)) mkdirSync(to, { recursive: true });
  for (const name of names) {
    const source = path.join(from, name);
    bytes += statSync(source).size;
    if (path.resolve(from) === path.resolve(to)) continue;
    const copy = path.join(to, name);
    copyFileSync(source, copy);
    if (digest(source) !== digest(copy)) throw new CopyError(`The copy of stored file ${name} differs from the original`);
  }
  return { count: names.length, bytes, dir: path.resolve(to) };
}

const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
