import BetterSqlite3 from "better-sqlite3";
import { lexicalTable } from "./lexical-index.ts";

/**
 * A connection of its own for the idle-time FTS5 merges (lexical-merges.ts). They are index upkeep, not anything
 * a request did, so they stay out of the serving connection's counters (a refused request is checked to have
 * changed nothing by SQLite's total_changes() on that connection) and out of its statement cache.
 */
export function createMergeConnection(file: string) {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const totalChanges = sqlite.prepare("SELECT total_changes()").pluck();
  const steps = new Map<string, BetterSqlite3.Statement>();

  return {
    /** As LexicalIndex.mergeStep, on this connection; a user without a table has nothing to merge. */
    mergeStep(userId: number, pages = 64): boolean {
      const key = `${userId}:${Math.max(1, Math.floor(pages))}`;
      let step = steps.get(key);
      if (!step) {
        const table = lexicalTable(userId);
        const exists = sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(table);
        if (!exists) return false;
        // FTS5 takes its commands' numbers as integer literals (a bound JavaScript number arrives as a real).
        step = sqlite.prepare(`INSERT INTO ${table}(${table}, rank) VALUES ('merge', ${Math.max(1, Math.floor(pages))})`);
        steps.set(key, step);
      }
      const before = totalChanges.get() as number;
      try {
        step.run();
      } catch (error) {
        steps.delete(key); // a table dropped by a reset is looked up again next time
        throw error;
      }
      return (totalChanges.get() as number) - before >= 2;
    },

    close(): void {
      sqlite.close();
    },
  };
}
