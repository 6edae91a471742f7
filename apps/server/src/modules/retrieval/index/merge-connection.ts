import BetterSqlite3 from "better-sqlite3";
import { createLexicalIndex } from "./lexical-index.ts";

/**
 * A connection of its own for the idle-time FTS5 merges (lexical-merges.ts). They are index upkeep, not anything
 * a request did, so they stay out of the serving connection's counters (a refused request is checked to have
 * changed nothing by SQLite's total_changes() on that connection) and out of its statement cache.
 */
export function createMergeConnection(file: string) {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const { mergeStep } = createLexicalIndex(sqlite);
  return {
    /** LexicalIndex.mergeStep on this connection. */
    mergeStep,
    close(): void {
      sqlite.close();
    },
  };
}
