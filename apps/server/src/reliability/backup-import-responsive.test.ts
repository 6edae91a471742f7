import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { backupClient } from "../test/backup-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

let t: TestApp;
afterEach(async () => t?.close());

/** `count` notes with a chunk each, written straight to the store for user 3, in one transaction of 500-row inserts. */
async function seedNotes(count: number) {
  const now = new Date().toISOString();
  const notes = Array.from({ length: count }, (_, index) => ({
    name: `Note ${index}`,
    content: `Note ${index} on quarterly budgets, hiring plans and the board's agenda.`,
  }));
  await t.store.db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const batch = notes.slice(start, start + 500);
      const rows = await trx
        .insertInto("knowledgeItems")
        .values(
          batch.map(({ name, content }) => ({
            userId: 3,
            type: "note" as const,
            name,
            path: name,
            size: content.length,
            status: "ready" as const,
            chunkCount: 1,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning(["id", "name"])
        .execute();
      const idOf = new Map(rows.map((row) => [row.name, row.id]));
      await trx
        .insertInto("knowledgeItemTexts")
        .values(batch.map(({ name, content }) => ({ itemId: idOf.get(name)!, content })))
        .execute();
      const chunks = batch.map(({ name, content }) => sql`(${idOf.get(name)!}, 3, 0, '', ${content}, ${now})`);
      await sql`INSERT INTO chunks (item_id, user_id, position, source, content, created_at) VALUES ${sql.join(chunks)}`.execute(trx);
    }
  });
}

describe("a large import", () => {
  it("lets other requests in while it writes, instead of holding the server in one transaction", async () => {
    t = await createTestApp();
    const cookie = await t.login();
    const backup = backupClient(t, cookie);
    const notes = 10_000;
    await seedNotes(notes);
    const archive = await backup.exportZip();
    const other = await t.loginAsNewUser();
    const count = async () =>
      (
        await t.store.db
          .selectFrom("knowledgeItems")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("userId", "=", 3)
          .executeTakeFirstOrThrow()
      ).n;

    let finished = false;
    const importing = backup.importZip(archive).finally(() => (finished = true));
    // Requests answered while the store held part of the backup: only possible if the import yields between batches.
    const answeredMidway: number[] = [];
    while (!finished) {
      const health = await t.app.inject({ method: "GET", url: "/api/health" });
      const theirs = await t.app.inject({ method: "GET", url: "/api/files", headers: { cookie: other.cookie } });
      expect([health.statusCode, theirs.statusCode]).toEqual([200, 200]);
      const held = await count();
      if (!finished && held > 0 && held < notes) answeredMidway.push(held);
      // Requests come from the network, not back to back in one microtask chain that would starve the import's I/O.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const response = await importing;
    expect(response.statusCode).toBe(200);
    expect(response.json().files_imported).toBe(notes);
    expect(await count()).toBe(notes);
    expect(answeredMidway.length).toBeGreaterThan(1);
  });
});
