import { afterEach, describe, expect, it } from "vitest";
import { backupClient } from "../test/backup-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

let t: TestApp;
afterEach(async () => t?.close());

/** `count` notes with a chunk each, written straight to the store for user 3. */
function seedNotes(count: number) {
  const now = new Date().toISOString();
  const item = t.store.sqlite.prepare(
    "INSERT INTO knowledge_items (user_id, type, name, path, size, status, chunk_count, created_at, updated_at) VALUES (3, 'note', ?, ?, ?, 'ready', 1, ?, ?)",
  );
  const text = t.store.sqlite.prepare("INSERT INTO knowledge_item_texts (item_id, content) VALUES (?, ?)");
  const chunk = t.store.sqlite.prepare("INSERT INTO chunks (item_id, user_id, position, source, content, created_at) VALUES (?, 3, 0, '', ?, ?)");
  t.store.sqlite.transaction(() => {
    for (let index = 0; index < count; index++) {
      const content = `Note ${index} on quarterly budgets, hiring plans and the board's agenda.`;
      const itemId = item.run(`Note ${index}`, `Note ${index}`, content.length, now, now).lastInsertRowid;
      text.run(itemId, content);
      chunk.run(itemId, content, now);
    }
  })();
}

describe("a large import", () => {
  it("lets other requests in while it writes, instead of holding the server in one transaction", async () => {
    t = await createTestApp();
    const cookie = await t.login();
    const backup = backupClient(t, cookie);
    const notes = 10_000;
    seedNotes(notes);
    const archive = await backup.exportZip();
    const other = await t.loginAsNewUser();
    const count = () => (t.store.sqlite.prepare("SELECT count(*) AS n FROM knowledge_items WHERE user_id = 3").get() as { n: number }).n;

    let finished = false;
    const importing = backup.importZip(archive).finally(() => (finished = true));
    // Requests answered while the store held part of the backup: only possible if the import yields between batches.
    const answeredMidway: number[] = [];
    while (!finished) {
      const health = await t.app.inject({ method: "GET", url: "/api/health" });
      const theirs = await t.app.inject({ method: "GET", url: "/api/files", headers: { cookie: other.cookie } });
      expect([health.statusCode, theirs.statusCode]).toEqual([200, 200]);
      const held = count();
      if (!finished && held > 0 && held < notes) answeredMidway.push(held);
      // Requests come from the network, not back to back in one microtask chain that would starve the import's I/O.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const response = await importing;
    expect(response.statusCode).toBe(200);
    expect(response.json().files_imported).toBe(notes);
    expect(count()).toBe(notes);
    expect(answeredMidway.length).toBeGreaterThan(1);
  }, 300_000);
});
