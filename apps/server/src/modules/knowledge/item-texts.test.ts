import { cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { rowCount } from "../../test/row-count.ts";

let t: TestApp;
afterEach(async () => t?.close());

const MIGRATIONS = fileURLToPath(new URL("../../store/migrations/", import.meta.url));

/** About `bytes` of note text, in paragraphs of distinct words. */
function longNote(bytes: number): string {
  const paragraphs: string[] = [];
  for (let index = 0, size = 0; size < bytes; index++) {
    const paragraph = `Paragraph ${index}: the board reviewed budget line ${index * 7} and hiring plan ${index * 13} for the quarter.`;
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return paragraphs.join("\n\n");
}

const walBytes = (dataDir: string) => statSync(path.join(dataDir, "sage.db-wal")).size;
const tableBytes = (table: string) =>
  (t.store.sqlite.prepare("SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name = ?").get(table) as { bytes: number }).bytes;

describe("an item's text", () => {
  // Measures SQLite's own files: its write-ahead log and the pages dbstat counts per table.
  it.skipIf(process.env.SAGE_TEST_ON_POSTGRES)("is kept out of the item's row: status changes write a few bytes and leave the text as it was", async () => {
    t = await createTestApp();
    const kb = knowledgeClient(t, await t.login());
    const text = longNote(900_000);
    const created = await kb.call("POST", "/api/process-note", { content: text });
    expect(created.statusCode).toBe(200);
    const id = created.json().file.id as number;
    await t.jobs.idle();
    expect((await kb.call("GET", `/api/files/${id}`)).json()).toMatchObject({ type: "note", status: "ready", content: text });

    // The item's row holds a page's worth at most; the text is in its own table.
    expect(tableBytes("knowledge_items")).toBeLessThanOrEqual(8192);
    expect(tableBytes("knowledge_item_texts")).toBeGreaterThan(900_000);

    // The status changes an ingestion makes, with the log emptied first: each wrote the whole 0.9 MB record before.
    const repo = createKnowledgeRepo(t.store);
    const chunkCount = (await kb.call("GET", `/api/files/${id}`)).json().chunkCount as number;
    t.store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    expect(walBytes(t.config.dataDir)).toBe(0);
    await repo.updateItem(id, { status: "queued", statusReason: null });
    await repo.updateItem(id, { status: "processing", statusReason: null });
    await repo.updateItem(id, { status: "ready", statusReason: null, chunkCount });
    expect(walBytes(t.config.dataDir)).toBeLessThan(64 * 1024);

    // The job reads the item without its text, and the text reads back unchanged.
    expect(await repo.getItemById(id)).not.toHaveProperty("content");
    expect((await kb.call("GET", `/api/files/${id}`)).json()).toMatchObject({ status: "ready", chunkCount, content: text });
    const download = await kb.call("GET", `/api/files/${id}/download`);
    expect(download.body).toBe(text);
  });

  it("an edit replaces the text, and deleting the note removes it", async () => {
    t = await createTestApp();
    const kb = knowledgeClient(t, await t.login());
    const created = await kb.call("POST", "/api/files", { type: "note", content: "Ferns like shade.", userId: 3, conversationId: 0, parentId: 0 });
    const id = created.json().id as number;
    await t.jobs.idle();
    const edited = await kb.call("PATCH", `/api/files/${id}`, { content: "Ferns like shade and damp soil." });
    expect(edited.json()).toMatchObject({ content: "Ferns like shade and damp soil." });
    await t.jobs.idle();
    expect((await kb.chunks(id)).map((chunk) => chunk.content).join(" ")).toContain("damp soil");
    expect((await kb.call("DELETE", `/api/files/${id}`)).statusCode).toBe(200);
    expect(await rowCount(t.store.db, "knowledge_item_texts")).toBe(0);
  });

  // Migrates the SQLite file an older version left; a PostgreSQL database begins with the schema after migration 1030.
  it.skipIf(process.env.SAGE_TEST_ON_POSTGRES)(
    "a store from before migration 0900 keeps every note's text, served and ingested from its new place",
    async () => {
      const text = "Minutes of the March board meeting: the orchard budget was approved.";
      t = await createTestApp({
        beforeOpen(dataDir) {
          // The store as the previous version left it: every migration before 0900, a note with its text in the row.
          const previous = mkdtempSync(path.join(tmpdir(), "sage-migrations-"));
          try {
            cpSync(MIGRATIONS, previous, { recursive: true, filter: (source) => !/\/\d{4}-[^/]*$/.test(source) || path.basename(source) < "0900" });
            const store = openStore({ dataDir, migrationsDir: previous });
            const now = new Date().toISOString();
            store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', ?)").run(now);
            store.sqlite
              .prepare(
                "INSERT INTO knowledge_items (id, user_id, type, name, path, content, size, status, created_at, updated_at) VALUES (1, 3, 'note', 'Minutes', 'Minutes', ?, ?, 'ready', ?, ?)",
              )
              .run(text, text.length, now, now);
            store.sqlite
              .prepare("INSERT INTO knowledge_items (id, user_id, type, name, path, created_at, updated_at) VALUES (2, 3, 'folder', 'Board', 'Board', ?, ?)")
              .run(now, now);
            store.sqlite.close();
          } finally {
            rmSync(previous, { recursive: true, force: true });
          }
        },
      });
      const columns = (t.store.sqlite.prepare("SELECT name FROM pragma_table_info('knowledge_items')").all() as { name: string }[]).map((row) => row.name);
      expect(columns).not.toContain("content");
      expect(t.store.sqlite.prepare("SELECT item_id AS itemId, content FROM knowledge_item_texts").all()).toEqual([{ itemId: 1, content: text }]);

      const kb = knowledgeClient(t, await t.login());
      expect((await kb.call("GET", "/api/files/1")).json()).toMatchObject({ name: "Minutes", content: text });
      const listed = (await kb.call("GET", "/api/files")).json() as Array<{ id: number; content: string }>;
      expect(listed.map((item) => [item.id, item.content])).toEqual([
        [1, text],
        [2, ""],
      ]);
      expect((await kb.call("POST", "/api/files/1/retry")).statusCode).toBe(202);
      await t.jobs.idle();
      expect((await kb.call("GET", "/api/files/1")).json()).toMatchObject({ status: "ready", chunkCount: 1, content: text });
      expect((await kb.chunks(1)).map((chunk) => chunk.content)).toEqual([text]);
    },
  );
});
