import { afterEach, describe, expect, it } from "vitest";
import { knowledgeItemListSchema } from "@sage/contracts/knowledge";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { toApiItem } from "./knowledge.service.ts";

let t: TestApp;
afterEach(async () => t?.close());

/** Items of every type, names that sort unusually, nulls, unicode and control characters, in two places. */
function seed(sqlite: TestApp["store"]["sqlite"]) {
  const now = "2025-03-04T05:06:07.000Z";
  const conversation = Number(
    sqlite.prepare("INSERT INTO conversations (user_id, name, created_at, updated_at) VALUES (3, 'Board', ?, ?)").run(now, now).lastInsertRowid,
  );
  const insert = sqlite.prepare(
    `INSERT INTO knowledge_items (user_id, conversation_id, parent_id, type, name, path, description, url, size, status, status_reason, chunk_count, created_at, updated_at)
     VALUES (3, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const text = sqlite.prepare("INSERT INTO knowledge_item_texts (item_id, content) VALUES (?, ?)");
  // A note's text lives in knowledge_item_texts (none for an item without text).
  const insertItem = (...[conversationId, parentId, type, name, path, description, content, ...rest]: unknown[]) => {
    const id = Number(insert.run(conversationId, parentId, type, name, path, description, ...rest).lastInsertRowid);
    if (content) text.run(id, content);
    return id;
  };
  const folder = insertItem(null, null, "folder", "Zeta", "Zeta", "", "", null, 0, "ready", null, 0, now, now);
  const rows: Array<[number | null, number | null, string, string, string, string | null, string, string | null]> = [
    [null, folder, "file", "b.txt", "", null, "ready", null],
    [null, null, "file", "B.txt", 'quote " backslash \\ tab \t', null, "failed", "The PDF could not be read"],
    [null, null, "file", "b.txt", "same name, later id", null, "stored", "scanned"],
    [conversation, null, "note", "Émile's note…", "line\nbreak, emoji 🦜, NUL-free", null, "ready", null],
    [null, folder, "url", "example.com page", "", "https://example.com/page?a=1&b=2", "stored", "Added as a reference without content processing"],
    [null, null, "folder", "alpha", "", null, "ready", null],
  ];
  for (const [conversationId, parentId, type, name, content, url, status, reason] of rows) {
    insertItem(conversationId, parentId, type, name, name, `${name} description`, content, url, content.length, status, reason, 3, now, now);
  }
  for (let index = 0; index < 7; index++)
    insertItem(null, folder, "note", `n${index % 3}`, `Zeta/n${index}`, "", `note ${index}`, null, 6, "queued", null, 0, now, now);
  return { conversation, folder };
}

describe("GET /api/files", () => {
  it("streams the same entries, in the same order, as one query mapped item by item, across page boundaries", async () => {
    t = await createTestApp();
    const { conversation, folder } = seed(t.store.sqlite);
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
