import { writeFileSync, existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown, as = cookie) =>
  t.app.inject({ method, url, payload: payload as any, headers: { cookie: as } });

async function create(name?: string) {
  const response = await call("POST", "/api/conversations", name === undefined ? {} : { name });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: number; name: string; createdAt: string };
}

describe("conversations", () => {
  it("creates, lists newest first, gets and renames (empty name allowed)", async () => {
    const first = await create("First");
    const second = await create();
    expect(second.name).toBe("New Conversation");
    expect(Object.keys(first).sort()).toEqual(["createdAt", "id", "name"]);
    const listed = await call("GET", "/api/conversations");
    expect(listed.headers["content-type"]).toBe("application/json; charset=utf-8");
    const list = listed.json();
    expect(list.map((c: any) => c.id)).toEqual([second.id, first.id]);
    expect((await call("GET", `/api/conversations/${first.id}`)).json()).toEqual(first);
    const renamed = await call("PATCH", `/api/conversations/${first.id}`, { name: "" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: first.id, name: "" });
    expect((await call("GET", `/api/conversations/${first.id}`)).json().name).toBe("");
  });

  it("rejects bad input with a 400 and changes nothing", async () => {
    const conversation = await create("Keep");
    const badName = await call("PATCH", `/api/conversations/${conversation.id}`, { name: 42 });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().error).toMatch(/^Invalid body: name/);
    expect((await call("PATCH", `/api/conversations/${conversation.id}`, {})).statusCode).toBe(400);
    expect((await call("GET", "/api/conversations/abc")).statusCode).toBe(400);
    expect((await call("POST", "/api/conversations", { name: "x".repeat(501) })).statusCode).toBe(400);
    expect((await call("GET", `/api/conversations/${conversation.id}`)).json().name).toBe("Keep");
    expect((await call("GET", "/api/conversations")).json()).toHaveLength(1);
  });

  it("hides another user's conversation behind a 404 for every route", async () => {
    const mine = await create("Mine");
    const other = await t.loginAsNewUser();
    expect((await call("GET", "/api/conversations", undefined, other.cookie)).json()).toEqual([]);
    for (const [method, url, payload] of [
      ["GET", `/api/conversations/${mine.id}`],
      ["PATCH", `/api/conversations/${mine.id}`, { name: "stolen" }],
      ["DELETE", `/api/conversations/${mine.id}`],
      ["GET", `/api/conversations/${mine.id}/messages`],
      ["POST", `/api/conversations/${mine.id}/messages`, { role: "user", content: "hi" }],
    ] as const) {
      const response = await call(method, url, payload, other.cookie);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error).toBe("Conversation not found");
    }
    expect((await call("GET", `/api/conversations/${mine.id}`)).json().name).toBe("Mine");
    expect((await call("GET", `/api/conversations/${mine.id}/messages`)).json()).toEqual([]);
    expect((await call("GET", "/api/conversations/99999")).statusCode).toBe(404);
  });

  it("appends messages and answers the updated list sorted by id", async () => {
    const conversation = await create();
    await call("POST", `/api/conversations/${conversation.id}/messages`, { role: "user", content: "Hello" });
    const response = await call("POST", `/api/conversations/${conversation.id}/messages`, { role: "model", content: "Hi there" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const list = response.json();
    expect(list.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "Hello"],
      ["model", "Hi there"],
    ]);
    expect(list[0].id).toBeLessThan(list[1].id);
    expect((await call("GET", `/api/conversations/${conversation.id}/messages`)).json()).toEqual(list);
  });

  it("answers each conversation's own stored messages across reads, appends and a delete", async () => {
    const first = await create("First");
    const second = await create("Second");
    const messagesUrl = (id: number) => `/api/conversations/${id}/messages`;
    expect((await call("GET", messagesUrl(first.id))).json()).toEqual([]);
    for (const [id, content] of [
      [first.id, "one"],
      [second.id, "two"],
      [first.id, "three"],
    ] as const) {
      expect((await call("POST", messagesUrl(id), { role: "user", content })).statusCode).toBe(200);
    }
    const other = await t.loginAsNewUser();
    expect((await call("POST", messagesUrl(first.id), { role: "user", content: "intruder" }, other.cookie)).statusCode).toBe(404);
    const stored = (id: number) =>
      t.store.sqlite
        .prepare("SELECT id, conversation_id AS conversationId, role, content, created_at AS createdAt FROM messages WHERE conversation_id = ? ORDER BY id")
        .all(id);
    const firstList = (await call("GET", messagesUrl(first.id))).json();
    expect(firstList.map((m: any) => m.content)).toEqual(["one", "three"]);
    expect(firstList).toEqual(stored(first.id));
    expect((await call("GET", messagesUrl(second.id))).json()).toEqual(stored(second.id));
    expect((await call("DELETE", `/api/conversations/${first.id}`)).statusCode).toBe(200);
    expect((await call("GET", messagesUrl(first.id))).statusCode).toBe(404);
    expect((await call("POST", messagesUrl(first.id), { role: "user", content: "late" })).statusCode).toBe(404);
    expect(stored(first.id)).toEqual([]);
  });

  it("refuses a message with a bad role or empty content", async () => {
    const conversation = await create();
    for (const payload of [{ role: "ai", content: "x" }, { role: "user", content: "" }, { role: "user" }]) {
      expect((await call("POST", `/api/conversations/${conversation.id}/messages`, payload)).statusCode).toBe(400);
    }
    expect((await call("GET", `/api/conversations/${conversation.id}/messages`)).json()).toEqual([]);
  });

  it("deletes a conversation with its messages, reminders, knowledge, chunks and stored uploads, nothing else", async () => {
    const doomed = await create("Doomed");
    const kept = await create("Kept");
    // A note first, so the user's full-text table exists and follows the chunks below by its triggers.
    expect((await call("POST", "/api/process-note", { type: "note", content: "unrelated gamma" })).json()).toMatchObject({ status: "success" });
    const db = t.store.sqlite;
    const now = new Date().toISOString();
    for (const id of [doomed.id, kept.id]) {
      await call("POST", `/api/conversations/${id}/messages`, { role: "user", content: `message ${id}` });
      db.prepare("INSERT INTO reminders (user_id, conversation_id, title, due_date, created_at, updated_at) VALUES (3, ?, 'r', '2030-01-01', ?, ?)").run(
        id,
        now,
        now,
      );
      const key = `blob-${id}`;
      writeFileSync(t.blobs.pathOf(key), "bytes");
      const item = db
        .prepare(
          "INSERT INTO knowledge_items (user_id, conversation_id, type, name, storage_key, created_at, updated_at) VALUES (3, ?, 'file', 'f.txt', ?, ?, ?)",
        )
        .run(id, key, now, now);
      db.prepare("INSERT INTO chunks (item_id, user_id, conversation_id, position, content, created_at) VALUES (?, 3, ?, 0, 'alpha beta', ?)").run(
        item.lastInsertRowid,
        id,
        now,
      );
    }
    const response = await call("DELETE", `/api/conversations/${doomed.id}`);
    expect(response.statusCode).toBe(200);
    expect((await call("GET", `/api/conversations/${doomed.id}`)).statusCode).toBe(404);
    const count = (table: string, id: number) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE conversation_id = ?`).get(id) as { n: number }).n;
    for (const table of ["messages", "reminders", "knowledge_items", "chunks"]) {
      expect(count(table, doomed.id), table).toBe(0);
      expect(count(table, kept.id), table).toBe(1);
    }
    expect(existsSync(t.blobs.pathOf(`blob-${doomed.id}`))).toBe(false);
    expect(existsSync(t.blobs.pathOf(`blob-${kept.id}`))).toBe(true);
    const found = (await call("POST", "/api/search", { query: "alpha" })).json() as { metadata: { file_id: number } }[];
    expect(found.map((result) => result.metadata.file_id)).toEqual(
      (db.prepare("SELECT id FROM knowledge_items WHERE conversation_id = ?").all(kept.id) as { id: number }[]).map((row) => row.id),
    );
    expect((await call("DELETE", `/api/conversations/${doomed.id}`)).statusCode).toBe(404);
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/conversations" })).statusCode).toBe(401);
  });
});
