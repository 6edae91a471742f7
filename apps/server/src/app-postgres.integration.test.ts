import { POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "@sage/testkit/postgres-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestApp, type TestApp } from "./test/test-app.ts";
import { multipartBody } from "./test/knowledge-client.ts";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openAppStore, type PostgresStore } from "./store/open-app-store.ts";
import { EXACT_SEARCH } from "./modules/retrieval/index/pg-search-index.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

/** The product through its HTTP API on PostgreSQL 15 (SAGE_DATABASE_URL), as on SQLite. */
describe.skipIf(!installed)("SAGE on PostgreSQL", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => server?.stop());
  const apps: TestApp<PostgresStore>[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function open() {
    const t = await createPostgresTestApp(await server.createDatabase());
    apps.push(t);
    const cookie = await t.login();
    const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    return { t, cookie, call };
  }

  it("a database it cannot reach stops start-up with a plain reason, the password hidden", async () => {
    const temp = makeTempDir();
    try {
      const opening = openAppStore({ dataDir: temp.dir, uploadsDir: `${temp.dir}/files`, databaseUrl: "postgres://sage:hunter2@127.0.0.1:1/sage" });
      await expect(opening).rejects.toThrow("Could not open the PostgreSQL database at postgres://sage:***@127.0.0.1:1/sage (ECONNREFUSED).");
    } finally {
      temp.remove();
    }
  });

  it("logs in, keeps conversations, messages, reminders and memories, and says which vector search it uses", async () => {
    const { t, call } = await open();
    expect((await call("GET", "/api/auth/me")).json()).toMatchObject({ user: { username: "demo" } });
    const conversation = (await call("POST", "/api/conversations", { name: "Board prep" })).json() as { id: number };
    expect((await call("POST", `/api/conversations/${conversation.id}/messages`, { role: "user", content: "Draft the agenda" })).statusCode).toBe(200);
    expect((await call("GET", "/api/conversations")).json()).toMatchObject([{ id: conversation.id, name: "Board prep", lastMessage: "Draft the agenda" }]);
    expect((await call("GET", `/api/conversations/${conversation.id}/messages`)).json()).toMatchObject([{ role: "user", content: "Draft the agenda" }]);

    const reminder = await call("POST", "/api/reminders", {
      title: "Send the board deck",
      description: "Q3 numbers",
      dueDate: "2026-03-05T09:00:00.000+01:00",
      priority: "high",
    });
    expect(reminder.statusCode).toBe(201);
    expect((await call("GET", "/api/reminders")).json()).toMatchObject([{ title: "Send the board deck" }]);
    expect((await call("POST", "/api/memories", { content: "Anna Berg is my chief of staff" })).statusCode).toBe(201);
    expect((await call("GET", "/api/memories")).json()).toMatchObject([{ content: "Anna Berg is my chief of staff" }]);
    expect((await call("GET", "/api/approvals")).json()).toEqual({ approvals: [] });
    // Accounts made after the demonstration account (id 3) are numbered after it.
    expect((await t.loginAsNewUser("anna")).userId).toBe(4);
    expect((await t.loginAsNewUser("ben")).userId).toBe(5);

    const reopened = await t.reopenApp();
    try {
      expect(reopened.vectorSearch).toBe(EXACT_SEARCH);
    } finally {
      await reopened.app.close();
    }
  });

  it("stores an upload in the shared files folder, reads it, finds it by its words and by a new name, and downloads it byte for byte", async () => {
    const { t, cookie, call } = await open();
    const text = "Quarterly review: the harbour lease renews in March at 12,400 a month.\n";
    const body = multipartBody({ userId: 3, conversationId: 0, parentId: 0 }, { filename: "lease.txt", content: Buffer.from(text), type: "text/plain" });
    const uploaded = await t.app.inject({ method: "POST", url: "/api/upload", headers: { cookie, ...body.headers }, payload: body.payload });
    expect(uploaded.statusCode).toBe(200);
    const id = uploaded.json().file.id as number;
    await t.jobs.idle();
    expect((await call("GET", `/api/files/${id}`)).json()).toMatchObject({ name: "lease.txt", status: "ready", chunkCount: 1 });
    expect(((await call("GET", "/api/files")).json() as Array<{ name: string }>).map((file) => file.name)).toEqual(["lease.txt"]);
    expect((await call("POST", "/api/search", { query: "harbour lease" })).json()[0]).toMatchObject({ metadata: { filename: "lease.txt" } });

    expect((await call("PATCH", `/api/files/${id}`, { name: "Kingfisher contract.txt" })).statusCode).toBe(200);
    expect((await call("POST", "/api/search", { query: "kingfisher" })).json()[0]).toMatchObject({ metadata: { filename: "Kingfisher contract.txt" } });
    const download = await call("GET", `/api/files/${id}/download`);
    expect(download.rawPayload.equals(Buffer.from(text))).toBe(true);

    const note = await call("POST", "/api/process-note", { type: "note", content: "Call Anna about the museum gala seating." });
    expect(note.json()).toMatchObject({ status: "success", chunks_processed: 1, file: { status: "ready" } });
    expect((await call("POST", "/api/search", { query: "museum gala" })).json()[0].content).toBe("Call Anna about the museum gala seating.");

    expect((await call("DELETE", `/api/files/${id}`)).statusCode).toBe(200);
    expect(await call("POST", "/api/search", { query: "harbour lease" }).then((response) => response.json())).toEqual([]);
  });

  it("exports the knowledge base as a backup and imports it back in its place", async () => {
    const { t, cookie, call } = await open();
    await call("POST", "/api/process-note", { type: "note", content: "The Lisbon offsite is in June." });
    const exported = await call("GET", "/api/export_vector_db");
    expect(exported.statusCode).toBe(200);
    await call("POST", "/api/process-note", { type: "note", content: "A note made after the backup." });
    expect((await call("GET", "/api/import_vector_db/preview")).json()).toMatchObject({ notes: 2 });

    const body = multipartBody({}, { filename: "backup.zip", content: exported.rawPayload, type: "application/zip" });
    const imported = await t.app.inject({ method: "POST", url: "/api/import_vector_db", headers: { cookie, ...body.headers }, payload: body.payload });
    expect(imported.statusCode).toBe(200);
    const names = ((await call("GET", "/api/files")).json() as Array<{ content: string }>).map((file) => file.content);
    expect(names).toEqual(["The Lisbon offsite is in June."]);
    expect((await call("POST", "/api/search", { query: "Lisbon offsite" })).json()[0].content).toBe("The Lisbon offsite is in June.");
    expect((await call("GET", "/api/knowledge/snapshots")).json()).toHaveLength(1);
  });
});
