/**
 * Export -> reset -> import gives back exactly what was there: every uploaded file byte for byte, every status and
 * reason, the folder tree, conversation files, chunks and vectors (search results are identical), and leaves no
 * file in data/uploads that no item points to.
 */
import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeImageOnlyPdf, makePdf } from "../documents/test/test-documents.ts";
import { seedConversation } from "../modules/retrieval/retrieval-test-helpers.ts";
import { createFakeEmbedder } from "../providers/embedder/fake.ts";
import { createProviders } from "../providers/registry.ts";
import { backupClient } from "../test/backup-client.ts";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";
import { rowCount } from "../test/row-count.ts";

let t: TestApp;
let cookie: string;
let kb: ReturnType<typeof knowledgeClient>;
let backup: ReturnType<typeof backupClient>;
afterEach(async () => t?.close());

async function start() {
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder: createFakeEmbedder({ id: "fake:a:256" }) }) });
  cookie = await t.login();
  kb = knowledgeClient(t, cookie);
  backup = backupClient(t, cookie);
}

const call = (method: "GET" | "POST", url: string, payload?: object) => backup.call(method, url, payload);

interface Item {
  id: number;
  name: string;
  type: string;
  path: string;
  parentId: number;
  status: string;
  statusReason: string | null;
  size: number;
  chunkCount: number;
  conversationId: number;
  description: string;
  content: string;
  url: string | null;
  createdAt: string;
}

const files = async (): Promise<Item[]> => (await call("GET", "/api/files")).json();

/** Everything a user sees of an item, by path (ids change in a restore; the tree is kept by path). */
async function knowledgeView() {
  const items = await files();
  const byId = new Map(items.map((item) => [item.id, item]));
  return items
    .map(({ id: _id, parentId, ...item }) => ({ ...item, parent: parentId ? byId.get(parentId)!.path : null }))
    .sort((a, b) => a.path.localeCompare(b.path) || a.type.localeCompare(b.type));
}

async function downloads() {
  const result: Record<string, { status: number; bytes: string; type: string | undefined }> = {};
  for (const item of await files()) {
    if (item.type === "folder") continue;
    const response = await call("GET", `/api/files/${item.id}/download`);
    result[item.path] = {
      status: response.statusCode,
      bytes: response.rawPayload.toString("base64"),
      type: response.headers["content-type"] as string | undefined,
    };
  }
  return result;
}

async function searches(conversation: number) {
  const results = [];
  for (const [query, conversationId] of [
    ["quarterly revenue dividend", undefined],
    ["pelican migration", undefined],
    ["board minutes", conversation],
    ["loamy soil", 0],
  ] as const) {
    const response = await call("POST", "/api/search", { query, conversation_id: conversationId });
    results.push(
      response
        .json()
        .map((result: { content: string; score: number; metadata: { filename: string; source: string } }) => [
          result.content,
          result.score,
          result.metadata.filename,
          result.metadata.source,
        ]),
    );
  }
  return results;
}

// Uploads live in files.dir (data/uploads on SQLite); on PostgreSQL the snapshots folder is there too, beside them.
const storedBlobs = () =>
  readdirSync(t.config.files.dir)
    .filter((name) => !name.startsWith(".") && !(process.env.SAGE_TEST_ON_POSTGRES && name === "snapshots"))
    .sort();
const referencedBlobs = async () =>
  (await t.store.db.selectFrom("knowledgeItems").select("storageKey").where("storageKey", "is not", null).execute()).map((row) => row.storageKey!).sort();

/** Folders, uploads that end ready, failed and stored, a reference-only link, a note, and a conversation's file. */
async function seedKnowledge() {
  const conversation = await seedConversation(t.store.db, 3, "Board");
  const finance = await kb.folder("Finance");
  const reports = await kb.folder("Reports", finance.id);
  const upload = async (fields: Record<string, string | number>, file: { filename: string; content: Buffer }) => {
    const response = await kb.upload({ userId: 3, conversationId: 0, parentId: 0, description: "seeded", ...fields }, file);
    expect(response.statusCode).toBeLessThan(300);
  };
  await upload(
    { parentId: reports.id },
    { filename: "q3 résumé.txt", content: Buffer.from("Quarterly revenue rose; the dividend stays.\r\nCafé notes — ünïcode\r\n\u0000binary-ish tail") },
  );
  await upload({}, { filename: "pelicans.pdf", content: await makePdf([["Pelican migration follows the coast."], ["Second page on loamy soil."]]) });
  await upload({}, { filename: "mislabelled.pdf", content: Buffer.from("plain text pretending to be a PDF") });
  await upload({}, { filename: "scan.pdf", content: await makeImageOnlyPdf() });
  await upload({ conversationId: conversation }, { filename: "minutes.txt", content: Buffer.from("Board minutes: approve the budget.") });
  expect(
    (await call("POST", "/api/files", { type: "url", url: "https://example.com/reference-only", userId: 3, conversationId: 0, parentId: finance.id }))
      .statusCode,
  ).toBe(201);
  expect(
    (await call("POST", "/api/files", { type: "note", content: "Loamy soil suits the quince orchard.", userId: 3, conversationId: 0, parentId: 0 })).statusCode,
  ).toBe(201);
  await t.jobs.idle();
  return { conversation };
}

describe("export -> reset -> import", () => {
  it("gives back every file byte for byte, every status, the tree and identical search results, leaving no stray files", async () => {
    await start();
    const { conversation } = await seedKnowledge();
    const before = { view: await knowledgeView(), downloads: await downloads(), searches: await searches(conversation) };
    expect(new Set(before.view.map((item) => item.status))).toEqual(new Set(["ready", "failed", "stored"]));
    expect(before.searches.every((results) => results.length > 0)).toBe(true);
    const vectors = () => rowCount(t.store.db, "chunk_vectors");
    const vectorsBefore = await vectors();

    const archive = await backup.exportZip();
    expect((await call("POST", "/api/reset_vector_db", {})).statusCode).toBe(200);
    const imported = await backup.importZip(archive);
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ files_imported: 7 });
    expect(imported.json().message).toMatch(/^Imported 7 files/);
    await t.jobs.idle();

    expect(await knowledgeView()).toEqual(before.view);
    expect(await downloads()).toEqual(before.downloads);
    expect(Object.values(before.downloads).every((download) => download.status === 200)).toBe(true);
    expect(await searches(conversation)).toEqual(before.searches);
    expect(await vectors()).toBe(vectorsBefore);
    expect(storedBlobs()).toEqual(await referencedBlobs());
    expect(storedBlobs()).toHaveLength(5);

    // The restored file still has its bytes, so processing it again works and keeps it searchable.
    const report = (await files()).find((item) => item.name === "q3 résumé.txt")!;
    expect((await call("POST", `/api/files/${report.id}/retry`, {})).statusCode).toBe(202);
    await t.jobs.idle();
    expect((await files()).find((item) => item.id === report.id)).toMatchObject({ status: "ready", chunkCount: report.chunkCount });
  });

  it("refuses to re-process a file whose bytes a backup did not hold, keeping its text searchable", async () => {
    await start();
    await seedKnowledge();
    const report = (await files()).find((item) => item.name === "q3 résumé.txt")!;
    await t.store.db.updateTable("knowledgeItems").set({ storageKey: null }).where("id", "=", report.id).execute();
    const retry = await call("POST", `/api/files/${report.id}/retry`, {});
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error).toMatch(/^The stored file is missing/);
    expect((await files()).find((item) => item.id === report.id)).toMatchObject({ status: "ready", chunkCount: report.chunkCount });
  });

  it("counts the 100 MB maximum without the original files, so a complete backup above it imports", async () => {
    await start();
    // Incompressible bytes under a .pdf name are stored as they are: the zip is over 100 MB because of them.
    const { randomBytes } = await import("node:crypto");
    const big = randomBytes(51 * 1024 * 1024);
    for (const name of ["scan-a.pdf", "scan-b.pdf"]) {
      const key = (await t.blobs.put((await import("node:stream")).Readable.from([big]))).key;
      const now = new Date().toISOString();
      await t.store.db
        .insertInto("knowledgeItems")
        .values({
          userId: 3,
          type: "file",
          name,
          path: name,
          size: big.length,
          storageKey: key,
          status: "stored",
          statusReason: "scanned",
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
    const archive = await backup.exportZip();
    expect(archive.length).toBeGreaterThan(100 * 1024 * 1024);
    const imported = await backup.importZip(archive);
    expect(imported.statusCode).toBe(200);
    expect(imported.json().files_imported).toBe(2);
    const restored = await files();
    const download = await call("GET", `/api/files/${restored[0]!.id}/download`);
    expect(download.rawPayload.equals(big)).toBe(true);
  });
});
