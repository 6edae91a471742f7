import { afterEach, describe, expect, it } from "vitest";
import { knowledgeItemListSchema } from "@sage/contracts/knowledge";
import type { Insertable } from "kysely";
import type { KnowledgeItemStatus, KnowledgeItemsTable, KnowledgeItemType } from "../../store/schema.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { toApiItem } from "./knowledge.service.ts";

let t: TestApp;
afterEach(async () => t?.close());

/** Items of every type, names that sort unusually, nulls, unicode and control characters, in two places. */
async function seed(db: TestApp["store"]["db"]) {
  const now = "2025-03-04T05:06:07.000Z";
  const { id: conversation } = await db
    .insertInto("conversations")
    .values({ userId: 3, name: "Board", createdAt: now, updatedAt: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  // A note's text lives in knowledge_item_texts (none for an item without text).
  const insertItem = async (item: Omit<Insertable<KnowledgeItemsTable>, "userId" | "createdAt" | "updatedAt">, content: string) => {
    const { id } = await db
      .insertInto("knowledgeItems")
      .values({ ...item, userId: 3, createdAt: now, updatedAt: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (content) await db.insertInto("knowledgeItemTexts").values({ itemId: id, content }).execute();
    return id;
  };
  const folder = await insertItem({ type: "folder", name: "Zeta", path: "Zeta", description: "", size: 0, status: "ready", chunkCount: 0 }, "");
  const rows: Array<[number | null, number | null, KnowledgeItemType, string, string, string | null, KnowledgeItemStatus, string | null]> = [
    [null, folder, "file", "b.txt", "", null, "ready", null],
    [null, null, "file", "B.txt", 'quote " backslash \\ tab \t', null, "failed", "The PDF could not be read"],
    [null, null, "file", "b.txt", "same name, later id", null, "stored", "scanned"],
    [conversation, null, "note", "Émile's note…", "line\nbreak, emoji 🦜, NUL-free", null, "ready", null],
    [null, folder, "url", "example.com page", "", "https://example.com/page?a=1&b=2", "stored", "Added as a reference without content processing"],
    [null, null, "folder", "alpha", "", null, "ready", null],
  ];
  for (const [conversationId, parentId, type, name, content, url, status, statusReason] of rows) {
    const item = { conversationId, parentId, type, name, path: name, description: `${name} description`, url, size: content.length, status, statusReason };
    await insertItem({ ...item, chunkCount: 3 }, content);
  }
  for (let index = 0; index < 7; index++) {
    const note = { parentId: folder, type: "note", name: `n${index % 3}`, path: `Zeta/n${index}`, description: "", size: 6, status: "queued" } as const;
    await insertItem({ ...note, chunkCount: 0 }, `note ${index}`);
  }
  return { conversation, folder };
}

describe("GET /api/files", () => {
  it("streams the same entries, in the same order, as one query mapped item by item, across page boundaries", async () => {
    t = await createTestApp();
    const { conversation, folder } = await seed(t.store.db);
    const repo = createKnowledgeRepo(t.store);
    const text = async (iterable: AsyncIterable<string>) => {
      let all = "";
      for await (const part of iterable) all += part;
      return all;
    };
    for (const filter of [{}, { conversationId: null }, { conversationId: conversation }, { parentId: folder }, { parentId: null }]) {
      const expected = (await repo.listItems(3, filter)).map(toApiItem);
      for (const pageSize of [1, 2, 5, 2000]) expect(JSON.parse(await text(repo.listJson(3, filter, pageSize)))).toEqual(expected);
    }

    const cookie = await t.login();
    const response = await t.app.inject({ method: "GET", url: "/api/files?userId=3", headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const listed = knowledgeItemListSchema.parse(response.json());
    expect(listed.map((item) => item.name).slice(0, 4)).toEqual(["example.com page", "n0", "n0", "n0"]);
    expect(listed).toHaveLength(14);
    const other = await t.loginAsNewUser();
    expect((await t.app.inject({ method: "GET", url: "/api/files", headers: { cookie: other.cookie } })).json()).toEqual([]);
  });
});
