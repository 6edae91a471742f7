import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";

/**
 * Applies `NNNN-name.sql` files in name order, each in its own transaction, recording them in
 * `schema_migrations`. Plain SQL files keep FTS5/virtual-table DDL readable and ship beside the bundle.
 * Modules add files with their own prefix range so parallel work never collides.
 */
export function migrate(sqlite: BetterSqlite3.Database, migrationsDir: string): string[] {
  sqlite.exec("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const applied = new Set((sqlite.prepare("SELECT name FROM schema_migrations").all() as { name: string }[]).map((row) => row.name));
  const files = readdirSync(migrationsDir)
    .filter((file) => /^\d{4}-[\w-]+\.sql$/.test(file))
    .sort();
  const record = sqlite.prepare("INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)");
  const newlyApplied: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(path.join(migrationsDir, file), "utf8");
    sqlite.transaction(() => {
      sqlite.exec(sql);
      record.run(file, new Date().toISOString());
    })();
    newlyApplied.push(file);
  }
  return newlyApplied;
}
