import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.ts";

describe("withStatementCache", () => {
  it("reuses a prepared statement for the same SQL and still answers correctly", () => {
    const db = withStatementCache(new BetterSqlite3(":memory:"));
    db.exec("CREATE TABLE t (x INTEGER)");
    const insert = db.prepare("INSERT INTO t VALUES (?)");
    expect(db.prepare("INSERT INTO t VALUES (?)")).toBe(insert);
    insert.run(1);
    db.prepare("INSERT INTO t VALUES (?)").run(2);
    expect(db.prepare("SELECT sum(x) AS s FROM t").get()).toEqual({ s: 3 });
  });

  it("prepares a fresh statement while the cached one is iterating", () => {
    const db = withStatementCache(new BetterSqlite3(":memory:"));
    db.exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)");
    const seen: number[] = [];
    for (const row of db.prepare("SELECT x FROM t ORDER BY x").iterate() as Iterable<{ x: number }>) {
      seen.push(row.x, ...(db.prepare("SELECT x FROM t ORDER BY x").all() as { x: number }[]).map((inner) => inner.x * 10));
    }
    expect(seen).toEqual([1, 10, 20, 2, 10, 20]);
  });

  it("keeps the connection's other methods working", () => {
    const raw = new BetterSqlite3(":memory:");
    const db = withStatementCache(raw);
    db.pragma("user_version = 7");
    expect(raw.pragma("user_version", { simple: true })).toBe(7);
    db.exec("CREATE TABLE t (x)");
    expect(db.inTransaction).toBe(false);
    db.close();
    expect(raw.open).toBe(false);
  });
});
