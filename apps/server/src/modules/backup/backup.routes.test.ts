import { readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { backupClient } from "../../test/backup-client.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
let kb: ReturnType<typeof knowledgeClient>;
afterEach(async () => t?.close());

async function start() {
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder: createFakeEmbedder({ id: "fake:a:256" }) }) });
  cookie = await t.login();
  kb = knowledgeClient(t, cookie);
}

const call = (method: "GET" | "POST", url: string, payload?: object) => backupClient(t, cookie).call(method, url, payload);
const files = () => backupClient(t, cookie).files();
const importZip = (archive: Buffer) => backupClient(t, cookie).importZip(archive);
const exportZip = () => backupClient(t, cookie).exportZip();
const insertConversation = async () => {
  const now = new Date().toISOString();
  return (
    await t.store.db.insertInto("conversations").values({ userId: 3, name: "Board", createdAt: now, updatedAt: now }).returning("id").executeTakeFirstOrThrow()
  ).id;
};

describe("import confirmation and snapshots", () => {
  it("says what an import would replace", async () => {
    await start();
    const conversation = await insertConversation();
    const finance = await kb.folder("Finance");
    await kb.folder("Archive", finance.id);
    await kb.upload({ userId: 3, conversationId: conversation, parentId: 0 }, { filename: "a.txt", content: Buffer.from("alpha") });
    await call("POST", "/api/files", { type: "url", url: "https://example.com/x", userId: 3, conversationId: 0, parentId: 0 });
    await call("POST", "/api/files", { type: "note", content: "one note", userId: 3, conversationId: 0, parentId: 0 });
    await t.jobs.idle();
    const preview = await call("GET", "/api/import_vector_db/preview");
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      files: 1,
      links: 1,
      notes: 1,
      folders: 2,
      inConversations: 1,
      message: "This replaces 2 files, 1 note and 2 folders (1 of them in conversations)",
    });
  });

  it("takes a snapshot before an import and a reset, keeps the last three, and restores one", async () => {
    await start();
    await call("POST", "/api/files", { type: "note", content: "Exported note about quinces.", userId: 3, conversationId: 0, parentId: 0 });
    await t.jobs.idle();
    const archive = await exportZip();
    await call("POST", "/api/files", { type: "note", content: "Note added after the export about medlars.", userId: 3, conversationId: 0, parentId: 0 });
    await t.jobs.idle();

    expect((await importZip(archive)).statusCode).toBe(200);
    expect((await files()).map((item) => item.content)).toEqual(["Exported note about quinces."]);
    const snapshots = async () => (await call("GET", "/api/knowledge/snapshots")).json() as Array<{ id: number; reason: string; notes: number; bytes: number }>;
    const [taken] = await snapshots();
    expect(taken).toMatchObject({ reason: "import", notes: 2 });
    expect(taken!.bytes).toBeGreaterThan(0);

    const restored = await call("POST", `/api/knowledge/snapshots/${taken!.id}/restore`, {});
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ files_imported: 2 });
    expect((await files()).map((item) => item.content).sort()).toEqual(["Exported note about quinces.", "Note added after the export about medlars."]);
    const found = (await call("POST", "/api/search", { query: "medlars" })).json();
    expect(found[0].content).toBe("Note added after the export about medlars.");

    expect((await call("POST", "/api/reset_vector_db", {})).statusCode).toBe(200);
    expect((await call("POST", "/api/reset_vector_db", {})).statusCode).toBe(200);
    const kept = await snapshots();
    expect(kept.map((snapshot) => snapshot.reason)).toEqual(["reset", "reset", "restore"]);
    // In the data folder; on a shared database, in the files folder every process reads (decision 060).
    const snapshotsDir = path.join(process.env.SAGE_TEST_ON_POSTGRES ? t.config.files.dir : t.config.dataDir, "snapshots");
    expect(readdirSync(snapshotsDir).sort()).toHaveLength(3);

    const download = await call("GET", `/api/knowledge/snapshots/${kept[0]!.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="knowledge_snapshot_.*\.zip"$/);
    expect((await importZip(download.rawPayload)).statusCode).toBe(200);
  });

  it("keeps snapshots private to their owner", async () => {
    await start();
    await call("POST", "/api/reset_vector_db", {});
    const [own] = (await call("GET", "/api/knowledge/snapshots")).json();
    const other = await t.loginAsNewUser();
    const asOther = (method: "GET" | "POST", url: string) =>
      t.app.inject({ method, url, headers: { cookie: other.cookie }, ...(method === "POST" ? { payload: {} } : {}) });
    expect((await asOther("GET", "/api/knowledge/snapshots")).json()).toEqual([]);
    expect((await asOther("POST", `/api/knowledge/snapshots/${own.id}/restore`)).statusCode).toBe(404);
    expect((await asOther("GET", `/api/knowledge/snapshots/${own.id}/download`)).statusCode).toBe(404);
  });
});
