import { writeFileSync, existsSync } from "node:fs";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

  it("pins a conversation to the top of the list, the latest pin first, and unpins it", async () => {
    const older = await create("Older");
    const middle = await create("Middle");
    const newest = await create("Newest");
    const order = async () => (await call("GET", "/api/conversations")).json().map((c: any) => [c.name, c.pinned ?? false]);
    expect((await call("PATCH", `/api/conversations/${older.id}`, { pinned: true })).json()).toMatchObject({ id: older.id, name: "Older", pinned: true });
    expect(await order()).toEqual([
      ["Older", true],
      ["Newest", false],
      ["Middle", false],
    ]);
    await call("PATCH", `/api/conversations/${middle.id}`, { pinned: true });
    expect((await order()).map(([name]: [string]) => name)).toEqual(["Middle", "Older", "Newest"]);
    const unpinned = (await call("PATCH", `/api/conversations/${older.id}`, { pinned: false })).json();
    expect(unpinned).not.toHaveProperty("pinned");
    expect(await order()).toEqual([
      ["Middle", true],
      ["Newest", false],
      ["Older", false],
    ]);
    // Kept with the conversation, as the store holds it (a restart reads it back).
    await t.app.close();
    const reopened = await t.reopen();
    const list = (await reopened.inject({ method: "GET", url: "/api/conversations", headers: { cookie } })).json();
    expect(list[0]).toMatchObject({ id: middle.id, pinned: true });
    expect(newest.id).toBeGreaterThan(0);
    await reopened.close();
  });

  it("refuses a model the server does not allow, and keeps the conversation as it was", async () => {
    const conversation = await create("Plain");
    const refused = await call("PATCH", `/api/conversations/${conversation.id}`, { model: "gpt-9" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "model_not_allowed", error: expect.stringContaining('Model "gpt-9" is not allowed') });
    expect((await call("GET", `/api/conversations/${conversation.id}`)).json()).toEqual(conversation);
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
      t.store.db
        .selectFrom("messages")
        .select(["id", "conversationId", "role", "content", "createdAt"])
        .where("conversationId", "=", id)
        .orderBy("id")
        .execute();
    const firstList = (await call("GET", messagesUrl(first.id))).json();
    expect(firstList.map((m: any) => m.content)).toEqual(["one", "three"]);
    expect(firstList).toEqual(await stored(first.id));
    expect((await call("GET", messagesUrl(second.id))).json()).toEqual(await stored(second.id));
    expect((await call("DELETE", `/api/conversations/${first.id}`)).statusCode).toBe(200);
    expect((await call("GET", messagesUrl(first.id))).statusCode).toBe(404);
    expect((await call("POST", messagesUrl(first.id), { role: "user", content: "late" })).statusCode).toBe(404);
    expect(await stored(first.id)).toHaveLength(2); // kept, restorable, until the purge (decision 035)
  });

  it("names a New Conversation after its first message once answered, never a name the user gave; lists show the last message", async () => {
    const untitled = await create();
    const named = await create("Board prep");
    const renamed = await create();
    expect((await call("PATCH", `/api/conversations/${renamed.id}`, { name: "Mine" })).statusCode).toBe(200);
    const say = (id: number, role: "user" | "model", content: string) => call("POST", `/api/conversations/${id}/messages`, { role, content });
    const nameOf = async (id: number) => (await call("GET", `/api/conversations/${id}`)).json().name;

    await say(untitled.id, "user", "draft an email to Anna about the **board meeting**?\nShe needs it by Friday.");
    expect(await nameOf(untitled.id)).toBe("New Conversation"); // not before the exchange
    await say(untitled.id, "model", "Dear Anna,\n\nThe board meets at 9.");
    expect(await nameOf(untitled.id)).toBe("Draft an email to Anna about the board meeting");
    for (const { id } of [named, renamed]) {
      await say(id, "user", "What is on my calendar?");
      await say(id, "model", "Nothing today.");
    }
    expect(await nameOf(named.id)).toBe("Board prep");
    expect(await nameOf(renamed.id)).toBe("Mine");
    // The user's rename afterwards stands, through later exchanges.
    await call("PATCH", `/api/conversations/${untitled.id}`, { name: "Anna" });
    await say(untitled.id, "user", "Shorter please");
    await say(untitled.id, "model", "Dear Anna, 9 am.");
    expect(await nameOf(untitled.id)).toBe("Anna");

    const listed = (await call("GET", "/api/conversations")).json();
    expect(listed).toEqual([
      { ...renamed, name: "Mine", lastMessage: "Nothing today." },
      { ...named, lastMessage: "Nothing today." },
      { ...untitled, name: "Anna", lastMessage: "Dear Anna, 9 am." },
    ]);
    const empty = await create();
    expect((await call("GET", "/api/conversations")).json()[0]).toEqual(empty);
  });

  it("refuses a message with a bad role or empty content", async () => {
    const conversation = await create();
    for (const payload of [{ role: "ai", content: "x" }, { role: "user", content: "" }, { role: "user" }]) {
      expect((await call("POST", `/api/conversations/${conversation.id}/messages`, payload)).statusCode).toBe(400);
    }
    expect((await call("GET", `/api/conversations/${conversation.id}/messages`)).json()).toEqual([]);
  });

  it("deletes a conversation from every list but keeps it, whole, restorable; the purge after 30 days removes it", async () => {
    const doomed = await create("Doomed");
    const kept = await create("Kept");
    expect((await call("POST", "/api/process-note", { type: "note", content: "unrelated gamma" })).json()).toMatchObject({ status: "success" });
    const { db } = t.store;
    const now = new Date().toISOString();
    const itemIds = new Map<number, number>();
    for (const id of [doomed.id, kept.id]) {
      await call("POST", `/api/conversations/${id}/messages`, { role: "user", content: `message ${id}` });
      await db
        .insertInto("reminders")
        .values({ userId: 3, conversationId: id, title: "r", description: "", dueDate: "2030-01-01", createdAt: now, updatedAt: now })
        .execute();
      const key = `blob-${id}`;
      writeFileSync(t.blobs.pathOf(key), "bytes");
      const item = await db
        .insertInto("knowledgeItems")
        .values({ userId: 3, conversationId: id, type: "file", name: "f.txt", storageKey: key, createdAt: now, updatedAt: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      itemIds.set(id, item.id);
      await t.knowledgeIndex.indexItem({ id: item.id, userId: 3, conversationId: id }, [{ position: 0, source: "", content: "alpha beta" }]);
    }
    const count = async (table: string, id: number) =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE conversation_id = ${id}`.execute(db)).rows[0]!.n);
    const visible = async () => ({
      conversations: (await call("GET", "/api/conversations")).json().map((item: { id: number }) => item.id),
      reminders: (await call("GET", "/api/reminders")).json().map((item: { conversationId: number }) => item.conversationId),
      files: (await call("GET", "/api/files")).json().flatMap((item: { id: number; type: string }) => (item.type === "file" ? [item.id] : [])),
      found: (await call("POST", "/api/search", { query: "alpha" })).json().map((result: { metadata: { file_id: number } }) => result.metadata.file_id),
    });
    const everything = await visible();

    const response = await call("DELETE", `/api/conversations/${doomed.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await call("GET", `/api/conversations/${doomed.id}`)).statusCode).toBe(404);
    expect((await call("GET", `/api/conversations/${doomed.id}/messages`)).statusCode).toBe(404);
    expect((await call("DELETE", `/api/conversations/${doomed.id}`)).statusCode).toBe(404);
    expect(await visible()).toEqual({ conversations: [kept.id], reminders: [kept.id], files: [itemIds.get(kept.id)], found: [itemIds.get(kept.id)] });
    // Nothing is lost yet: the conversation is listed as deleted, with what it holds.
    for (const table of ["messages", "reminders", "knowledge_items", "chunks"]) expect(await count(table, doomed.id), table).toBe(1);
    const deleted = (await call("GET", "/api/conversations/deleted")).json();
    expect(deleted).toEqual([{ ...doomed, deletedAt: expect.any(String), purgeAt: expect.any(String), reminderCount: 1, fileCount: 1 }]);
    expect(Date.parse(deleted[0].purgeAt) - Date.parse(deleted[0].deletedAt)).toBe(30 * 86_400_000);
    const other = await t.loginAsNewUser();
    expect((await call("GET", "/api/conversations/deleted", undefined, other.cookie)).json()).toEqual([]);
    expect((await call("POST", `/api/conversations/${doomed.id}/restore`, undefined, other.cookie)).statusCode).toBe(404);

    // Restore brings back the conversation with its messages, reminders, files and search.
    const restored = await call("POST", `/api/conversations/${doomed.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toEqual(doomed);
    expect((await call("POST", `/api/conversations/${doomed.id}/restore`)).statusCode).toBe(404);
    expect(await visible()).toEqual(everything);
    expect((await call("GET", `/api/conversations/${doomed.id}/messages`)).json().map((m: { content: string }) => m.content)).toEqual([`message ${doomed.id}`]);
    expect((await call("GET", "/api/conversations/deleted")).json()).toEqual([]);

    // Deleted again and left 31 days: the purge at the next start deletes it and its stored upload for good.
    expect((await call("DELETE", `/api/conversations/${doomed.id}`)).statusCode).toBe(200);
    await db
      .updateTable("conversations")
      .set({ deletedAt: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where("id", "=", doomed.id)
      .execute();
    const restarted = await t.reopen();
    await vi.waitFor(() => expect(existsSync(t.blobs.pathOf(`blob-${doomed.id}`))).toBe(false));
    await restarted.close();
    for (const table of ["messages", "reminders", "knowledge_items", "chunks"]) {
      expect(await count(table, doomed.id), table).toBe(0);
      expect(await count(table, kept.id), table).toBe(1);
    }
    expect(existsSync(t.blobs.pathOf(`blob-${kept.id}`))).toBe(true);
    expect((await call("POST", `/api/conversations/${doomed.id}/restore`)).statusCode).toBe(404);
    expect((await call("GET", "/api/conversations/deleted")).json()).toEqual([]);
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/conversations" })).statusCode).toBe(401);
  });
});
