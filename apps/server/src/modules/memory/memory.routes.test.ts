import { MEMORY_CONTENT_MAX, MEMORY_ERRORS } from "@sage/contracts/memories";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import yazl from "yazl";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp({ env: { SAGE_EMBEDDER: "none" } });
  cookie = await t.login();
});
afterEach(() => t.close());

const call = (method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT", url: string, payload?: unknown, as = cookie) =>
  t.app.inject({ method, url, headers: { cookie: as }, ...(payload === undefined ? {} : { payload: payload as object }) });
const list = async (as = cookie) => (await call("GET", "/api/memories", undefined, as)).json() as any[];

describe("/api/memories", () => {
  it("adds, lists, edits and deletes a user's memories", async () => {
    const created = await call("POST", "/api/memories", { content: "  Anna Berg is my chief of staff  " });
    expect(created.statusCode).toBe(201);
    const memory = created.json();
    expect(memory).toEqual({
      id: expect.any(Number),
      content: "Anna Berg is my chief of staff",
      source: "user",
      createdAt: expect.any(String),
      updatedAt: memory.createdAt,
    });
    expect(await list()).toEqual([memory]);

    const edited = await call("PATCH", `/api/memories/${memory.id}`, { content: "Anna Berg is my chief of staff since May" });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: memory.id, content: "Anna Berg is my chief of staff since May", createdAt: memory.createdAt });

    expect((await call("DELETE", `/api/memories/${memory.id}`)).json()).toEqual({ ok: true });
    expect(await list()).toEqual([]);
    expect((await call("DELETE", `/api/memories/${memory.id}`)).statusCode).toBe(404);
  });

  it("refuses empty, too long and secret content with a clear 400, and saves nothing", async () => {
    const cases: [unknown, string][] = [
      [{}, MEMORY_ERRORS.contentRequired],
      [{ content: "   " }, MEMORY_ERRORS.contentRequired],
      [{ content: 42 }, MEMORY_ERRORS.contentRequired],
      [{ content: "x".repeat(MEMORY_CONTENT_MAX + 1) }, MEMORY_ERRORS.contentTooLong],
      [{ content: "My bank password is hunter2" }, MEMORY_ERRORS.secret],
      [{ content: "Use the key sk-live_abcdefghijklmnopqrstuvwx for billing" }, MEMORY_ERRORS.secret],
    ];
    for (const [payload, error] of cases) {
      const response = await call("POST", "/api/memories", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ error, code: expect.any(String) });
    }
    expect((await call("POST", "/api/memories", { content: "x".repeat(MEMORY_CONTENT_MAX) })).statusCode).toBe(201);
    expect(await list()).toHaveLength(1);
  });

  it("refuses secrets in English, German and French, whoever sends them", async () => {
    const secrets = [
      "password hunter2",
      "the wifi passphrase hunter2",
      "door code 4711",
      "The user's bank login phrase: hunter2 (door code 4711)",
      "Card 4111 1111 1111 1111",
      "passwort ist hunter2",
      "Der Türcode lautet 4711",
      "Le mot de passe du wifi est soleil42",
      "Le digicode de l'immeuble est 4711B",
    ];
    for (const content of secrets) {
      const response = await call("POST", "/api/memories", { content });
      expect(response.statusCode, content).toBe(400);
      expect(response.json()).toEqual({ error: MEMORY_ERRORS.secret, code: "secret_refused" });
    }
    const kept = (await call("POST", "/api/memories", { content: "I change my password every 90 days" })).json();
    expect((await call("PATCH", `/api/memories/${kept.id}`, { content: "Mein Passwort ist Sonne123" })).json()).toEqual({
      error: MEMORY_ERRORS.secret,
      code: "secret_refused",
    });
    expect((await list()).map((memory) => memory.content)).toEqual(["I change my password every 90 days"]);
  });

  it("never keeps the same fact twice: adding it again answers the memory that holds it", async () => {
    const first = await call("POST", "/api/memories", { content: "Anna Berg is my chief of staff" });
    expect(first.statusCode).toBe(201);
    const again = await call("POST", "/api/memories", { content: "  anna berg is my  Chief of Staff. " });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const other = (await call("POST", "/api/memories", { content: "I prefer short emails" })).json();
    const clash = await call("PATCH", `/api/memories/${other.id}`, { content: "Anna Berg is my chief of staff" });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: MEMORY_ERRORS.duplicate, code: "duplicate_memory" });
    expect((await list()).map((memory) => memory.content)).toEqual(["Anna Berg is my chief of staff", "I prefer short emails"]);
  });

  it("flags, never deletes, stored memories that look like secrets when SAGE starts, and an edit clears the flag", async () => {
    const now = new Date().toISOString();
    const insert = async (content: string) =>
      (
        await t.store.db
          .insertInto("memories")
          .values({ userId: 3, content, source: "assistant", conversationId: null, createdAt: now, updatedAt: now, flaggedSecret: 0 })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    // Saved by an older SAGE, whose check missed these.
    const secret = await insert("The user's bank login phrase: hunter2 (door code 4711)");
    await insert("Anna Berg is my chief of staff");
    const restarted = await t.reopen();
    try {
      const listed = (await restarted.inject({ method: "GET", url: "/api/memories", headers: { cookie } })).json() as any[];
      expect(listed.map((memory) => [memory.content, memory.flaggedSecret ?? false])).toEqual([
        ["The user's bank login phrase: hunter2 (door code 4711)", true],
        ["Anna Berg is my chief of staff", false],
      ]);
      const edited = await restarted.inject({
        method: "PATCH",
        url: `/api/memories/${secret}`,
        headers: { cookie },
        payload: { content: "I bank with Zürcher Kantonalbank" },
      });
      expect(edited.json()).not.toHaveProperty("flaggedSecret");
    } finally {
      await restarted.close();
    }
  });

  it("keeps each user's memories private: another user's are 404 and never listed", async () => {
    const mine = (await call("POST", "/api/memories", { content: "I prefer short emails" })).json();
    const other = await t.loginAsNewUser();
    expect(await list(other.cookie)).toEqual([]);
    expect((await call("PATCH", `/api/memories/${mine.id}`, { content: "hijacked" }, other.cookie)).json()).toEqual({
      error: MEMORY_ERRORS.memoryNotFound,
      code: "memory_not_found",
    });
    expect((await call("DELETE", `/api/memories/${mine.id}`, undefined, other.cookie)).statusCode).toBe(404);
    expect((await call("PATCH", "/api/memories/not-a-number", { content: "x" })).statusCode).toBe(404);
    expect(await list()).toEqual([mine]);
  });

  it("keeps a memory when the conversation it was saved in is deleted", async () => {
    const conversationId = (await call("POST", "/api/conversations", { name: "Where I said it" })).json().id;
    const now = new Date().toISOString();
    await t.store.db
      .insertInto("memories")
      .values({ userId: 3, content: "I prefer morning meetings", source: "assistant", conversationId, createdAt: now, updatedAt: now, flaggedSecret: 0 })
      .execute();
    expect(await list()).toEqual([expect.objectContaining({ content: "I prefer morning meetings", conversationId })]);
    expect((await call("DELETE", `/api/conversations/${conversationId}`)).statusCode).toBe(200);
    const [kept] = await list();
    expect(kept).toMatchObject({ content: "I prefer morning meetings", source: "assistant" });
    expect(kept).not.toHaveProperty("conversationId");
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/memories" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/memory-settings" })).statusCode).toBe(401);
  });
});

describe("/api/memory-settings", () => {
  it("is on by default and keeps the switch per user", async () => {
    expect((await call("GET", "/api/memory-settings")).json()).toEqual({ enabled: true });
    expect((await call("PUT", "/api/memory-settings", { enabled: false })).json()).toEqual({ enabled: false });
    expect((await call("GET", "/api/memory-settings")).json()).toEqual({ enabled: false });
    const other = await t.loginAsNewUser();
    expect((await call("GET", "/api/memory-settings", undefined, other.cookie)).json()).toEqual({ enabled: true });
    const bad = await call("PUT", "/api/memory-settings", { enabled: "yes" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: MEMORY_ERRORS.enabledInvalid, code: "validation_error" });
  });
});

const backedUp = async () =>
  ((await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } })).json() as any[]).map((memory) => [memory.content, memory.source]);
const add = (content: string) => call("POST", "/api/memories", { content });

async function importZip(archive: Buffer) {
  const boundary = "----sage-memory-boundary";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    archive,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: "POST",
    url: "/api/import_vector_db",
    headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

describe("memories in the backup", () => {
  it("are exported, and an import puts them back in place of the current ones", async () => {
    await add("Anna Berg is my chief of staff");
    await add("I prefer emails under 100 words");
    // Kept from a mail's red card (issue 47): after a round trip it still says which mail its words came from.
    const at = new Date().toISOString();
    const from = "the mail from bob@partner.example of 3 Dec";
    await t.store.db
      .insertInto("memories")
      .values({
        userId: 3,
        content: "Invoices go to the Zurich office",
        source: "assistant",
        conversationId: null,
        createdAt: at,
        updatedAt: at,
        derivedFrom: JSON.stringify({ title: from, fileId: 7 }),
      })
      .execute();
    const archive = (await t.app.inject({ method: "GET", url: "/api/export_vector_db", headers: { cookie } })).rawPayload;
    const list = (await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } })).json() as any[];
    for (const memory of list) await t.app.inject({ method: "DELETE", url: `/api/memories/${memory.id}`, headers: { cookie } });
    await add("A fact added after the export");

    const imported = await importZip(archive);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await backedUp()).toEqual([
      ["Anna Berg is my chief of staff", "user"],
      ["I prefer emails under 100 words", "user"],
      ["Invoices go to the Zurich office", "assistant"],
    ]);
    const restored = (await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } })).json() as any[];
    expect(restored.map((memory) => memory.derivedFrom ?? null)).toEqual([null, null, { title: from }]);
  });

  it("leaves the memories alone when the backup predates them (no memories.jsonl)", async () => {
    await add("Anna Berg is my chief of staff");
    const zip = new yazl.ZipFile();
    zip.addBuffer(
      Buffer.from(JSON.stringify({ format: "sage-vector-db", version: 1, embedder: null, counts: { items: 0, chunks: 0, vectors: 0 } })),
      "manifest.json",
    );
    for (const name of ["items.jsonl", "chunks.jsonl", "vectors.jsonl"]) zip.addBuffer(Buffer.from(""), name);
    zip.end();
    const parts: Buffer[] = [];
    await new Promise<void>((resolve) => zip.outputStream.on("data", (part: Buffer) => parts.push(part)).on("end", () => resolve()));
    expect((await importZip(Buffer.concat(parts))).statusCode).toBe(200);
    expect(await backedUp()).toEqual([["Anna Berg is my chief of staff", "user"]]);
  });
});
