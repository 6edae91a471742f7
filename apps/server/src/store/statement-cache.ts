import type BetterSqlite3 from "better-sqlite3";

/**
 * Kysely's SQLite driver prepares every query afresh; preparing costs more than running most of ours.
 * This hands Kysely a view of the connection whose prepare() reuses statements by SQL text (bounded).
 * Safe because better-sqlite3 is synchronous: a statement finishes before the next use, except while an
 * iterate() is open, and then a fresh statement is prepared instead.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, maxEntries = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = sqlite.prepare(source);
    if (!cached) {
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
