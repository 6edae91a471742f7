import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { StoreError, openStore } from "./open-store.ts";

const temps: { remove(): void }[] = [];
afterEach(() => temps.splice(0).forEach((temp) => temp.remove()));
const tempDir = () => {
  const temp = makeTempDir();
  temps.push(temp);
  return temp.dir;
};

describe("openStore", () => {
  it("creates every table from an empty folder, in WAL mode with foreign keys on, and passes the integrity check", async () => {
    const store = openStore({ dataDir: tempDir() });
    const tables = (store.sqlite.prepare("SELECT name FROM sqlite_master WHERE type IN ('table')").all() as { name: string }[]).map((row) => row.name);
    for (const table of [
      "users",
      "sessions",
      "conversations",
      "messages",
      "reminders",
      "knowledge_items",
      "chunks",
      "lexical_users",
      "lexical_pending",
      "jobs",
    ]) {
      expect(tables).toContain(table);
    }
    expect(store.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(store.sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(store.vectorExtension).toBe(true);
    await store.close();
  });

  it("runs each migration once across restarts and keeps data", async () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir });
    first.sqlite.prepare("INSERT INTO users (username, password_hash, created_at) VALUES ('a', 'h', 'now')").run();
    await first.close();
    const second = openStore({ dataDir: dir });
    const applied = second.sqlite.prepare("SELECT count(*) AS n FROM schema_migrations").get() as { n: number };
    expect(applied.n).toBeGreaterThan(0);
    expect(second.sqlite.prepare("SELECT username FROM users").get()).toEqual({ username: "a" });
    await second.close();
  });

  // Each user's FTS table, made by the search index, follows chunks by its own triggers (lexical-index.test.ts).
  it("keeps a chunk written before its user has a full-text table waiting for it, and forgets it with the chunk", async () => {
    const store = openStore({ dataDir: tempDir() });
    const db = store.sqlite;
    db.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'h', 'now')").run();
    db.prepare("INSERT INTO knowledge_items (id, user_id, type, name, created_at, updated_at) VALUES (1, 3, 'note', 'Budget plan', 'now', 'now')").run();
    db.prepare("INSERT INTO chunks (item_id, user_id, position, content, created_at) VALUES (1, 3, 0, 'quarterly revenue forecasts', 'now')").run();
    expect(db.prepare("SELECT user_id AS userId FROM lexical_pending").all()).toEqual([{ userId: 3 }]);
    db.prepare("DELETE FROM knowledge_items WHERE id = 1").run();
    expect(db.prepare("SELECT count(*) AS n FROM lexical_pending").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM chunks").get()).toEqual({ n: 0 });
    await store.close();
  });

  it("a read-only data folder gives a clear error instead of a broken store", () => {
    if (process.getuid?.() === 0) {
      // root ignores permission bits; a path under a regular file can never be created.
      const dir = tempDir();
      const blocker = path.join(dir, "file");
      writeFileSync(blocker, "x");
      expect(() => openStore({ dataDir: path.join(blocker, "data") })).toThrow(StoreError);
      expect(() => openStore({ dataDir: path.join(blocker, "data") })).toThrow(/is not writable/);
      return;
    }
    const dir = path.join(tempDir(), "ro");
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    expect(() => openStore({ dataDir: dir })).toThrow(/is not writable/);
  });
});
