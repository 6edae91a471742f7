import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import yazl from "yazl";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { holdingDocuments, insertKnowledgeRows, seedConversation, seedKnowledge } from "./retrieval-test-helpers.ts";

let t: TestApp;
afterEach(async () => t.close());
const DEMO_USER = 3;

async function start(embedder = createFakeEmbedder({ id: "fake:a:256" })) {
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder }) });
  return await t.login();
}

function multipart(filename: string, content: Buffer) {
  const boundary = "----sage-test-boundary";
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress: typeof content === "string" });
  zip.end();
  const parts: Buffer[] = [];
  return new Promise((resolve) => {
    zip.outputStream.on("data", (part: Buffer) => parts.push(part));
    zip.outputStream.on("end", () => resolve(Buffer.concat(parts)));
  });
}

/** A folder with a report, and a note in a conversation; `embedded` puts the chunks in through the index, with vectors. */
async function seed(options: { embedded?: boolean } = {}) {
  const conversation = await seedConversation(t.store.db, DEMO_USER);
  const now = new Date().toISOString();
  const { id: folder } = await t.store.db
    .insertInto("knowledgeItems")
    .values({ userId: DEMO_USER, type: "folder", name: "Finance", path: "Finance", createdAt: now, updatedAt: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const add = (input: { userId: number; conversationId?: number; name: string; chunks: string[] }) =>
    options.embedded ? seedKnowledge(t, input) : insertKnowledgeRows(t.store.db, input);
  const report = await add({ userId: DEMO_USER, name: "report.txt", chunks: ["Revenue grew twelve percent.", "Vehicle fleet costs fell."] });
  await t.store.db.updateTable("knowledgeItems").set({ parentId: folder }).where("id", "=", report.itemId).execute();
  const notes = await add({ userId: DEMO_USER, conversationId: conversation, name: "notes.txt", chunks: ["Dividend policy draft for the board."] });
  return { conversation, items: [report.itemId, notes.itemId] };
}

const counts = async () =>
  (
    await sql<{ items: number; chunks: number; vectors: number }>`SELECT (SELECT count(*) FROM knowledge_items) AS items,
      (SELECT count(*) FROM chunks) AS chunks, (SELECT count(*) FROM chunk_vectors) AS vectors`.execute(t.store.db)
  ).rows[0];

describe("vector database lifecycle", () => {
  it("export -> reset -> import gives identical search results and the same items, OCR pages included", async () => {
    const cookie = await start();
    const { conversation, items } = await seed({ embedded: true });
    // A scan whose pages 2 and 5 were read by text recognition, which gave up on page 7.
    await t.store.db.updateTable("knowledgeItems").set({ ocrPages: "[2,5]", ocrFailedPages: "[7]" }).where("id", "=", items[0]!).execute();
    // The seed writes chunks beside the items; their counts are set as ingestion would have.
    await sql`UPDATE knowledge_items SET chunk_count = (SELECT count(*) FROM chunks WHERE item_id = knowledge_items.id)`.execute(t.store.db);
    const listing = async () =>
      ((await t.app.inject({ method: "GET", url: "/api/files", headers: { cookie } })).json() as Array<Record<string, unknown>>)
        .map(({ id: _id, parentId: _parentId, ...item }) => item)
        .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    const itemsBefore = await listing();
    expect(itemsBefore.find((item) => item.name === "report.txt")).toMatchObject({ ocrPages: [2, 5], ocrFailedPages: [7] });
    const searchAll = async () => {
      const results = [];
      for (const [query, conversationId] of [
        ["revenue vehicle fleet", undefined],
        ["dividend board", conversation],
      ] as const) {
        const body = (
          await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query, conversation_id: conversationId } })
        ).json();
        results.push(
          body.map((result: { content: string; score: number; metadata: { filename: string; source: string } }) => [
            result.content,
            result.score,
            result.metadata.filename,
            result.metadata.source,
          ]),
        );
      }
      return results;
    };
    const before = await searchAll();
    expect(before[0].length).toBeGreaterThan(0);

    const exported = await t.app.inject({ method: "GET", url: "/api/export_vector_db", headers: { cookie } });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers["content-disposition"]).toContain('filename="vector_db_backup.zip"');
    const archive = exported.rawPayload;

    const reset = await t.app.inject({ method: "POST", url: "/api/reset_vector_db", headers: { cookie }, payload: {} });
    expect(reset.json().vectors_removed).toBe(3);
    expect(await counts()).toEqual({ items: 3, chunks: 3, vectors: 0 });

    const imported = await t.app.inject({
      method: "POST",
      url: "/api/import_vector_db",
      headers: { cookie, ...multipart("backup.zip", archive).headers },
      payload: multipart("backup.zip", archive).payload,
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json().files_imported).toBe(2);
    expect(imported.json().message).toMatch(/Imported 2 files/);
    expect(await counts()).toEqual({ items: 3, chunks: 3, vectors: 3 });
    expect(await searchAll()).toEqual(before);
    expect(await listing()).toEqual(itemsBefore);
    const restored = await t.store.db.selectFrom("knowledgeItems").select(["name", "parentId", "conversationId"]).orderBy("name").execute();
    expect(restored.map(({ name, parentId, conversationId }) => ({ name, nested: parentId !== null, conversationId }))).toEqual([
      { name: "Finance", nested: false, conversationId: null },
      { name: "notes.txt", nested: false, conversationId: conversation },
      { name: "report.txt", nested: true, conversationId: null },
    ]);
  });

  it("rejects a zip with a traversal path, a corrupt one and one that contradicts its manifest, changing nothing", async () => {
    const cookie = await start();
    await seed();
    const before = await counts();
    const manifest = JSON.stringify({ format: "sage-vector-db", version: 1, embedder: null, counts: { items: 0, chunks: 0, vectors: 0 } });
    const traversal = await zipOf({ "manifest.json": manifest, "xx/evil.txt": "owned" });
    const patched = Buffer.from(traversal.toString("latin1").replaceAll("xx/evil.txt", "../evil.txt"), "latin1");
    const lying = await zipOf({ "manifest.json": manifest, "items.jsonl": '{"id":1}\n' });
    for (const [archive, message] of [
      [patched, /unsafe path: \.\.\/evil\.txt/],
      [Buffer.from("not a zip at all"), /not a readable ZIP/],
      [lying, /Import Failed/],
    ] as const) {
      const upload = multipart("backup.zip", archive);
      const response = await t.app.inject({ method: "POST", url: "/api/import_vector_db", headers: { cookie, ...upload.headers }, payload: upload.payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(message);
      expect(await counts()).toEqual(before);
    }
  });

  it("refuses files that are not .zip, and backups over 100 MB without their original files, with the product's messages", async () => {
    const cookie = await start();
    await seed();
    const before = await counts();
    const wrongType = multipart("backup.tar", Buffer.from("x"));
    const typeResponse = await t.app.inject({
      method: "POST",
      url: "/api/import_vector_db",
      headers: { cookie, ...wrongType.headers },
      payload: wrongType.payload,
    });
    expect(typeResponse.statusCode).toBe(400);
    expect(typeResponse.json().error).toBe("Invalid File Format: Please upload a ZIP file containing a vector database backup.");

    const manifest = JSON.stringify({ format: "sage-vector-db", version: 2, embedder: null, counts: { items: 0, chunks: 0, vectors: 0 } });
    const oversized = multipart("backup.zip", await zipOf({ "manifest.json": manifest, "padding.bin": Buffer.alloc(100 * 1024 * 1024 + 1) }));
    const sizeResponse = await t.app.inject({
      method: "POST",
      url: "/api/import_vector_db",
      headers: { cookie, ...oversized.headers },
      payload: oversized.payload,
    });
    expect(sizeResponse.statusCode).toBe(413);
    expect(sizeResponse.json().error).toMatch(/^File Too Large: .*100MB/);
    expect(await counts()).toEqual(before);
  });

  it("re-vectorizes every chunk after switching embedders, dropping the old vectors", async () => {
    const cookie = await start(createFakeEmbedder({ id: "fake:a:256" }));
    await seed({ embedded: true });

    // Held until the status is read: meeting a new embedder, SAGE starts re-vectorising by itself.
    const switched = holdingDocuments(createFakeEmbedder({ id: "fake:b:128", dimensions: 128, related: [["automobile", "vehicle"]] }));
    const second = await t.reopen({ providers: { ...createProviders(t.config), embedder: switched.embedder } });
    try {
      const status = (await second.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json();
      expect(status).toMatchObject({ embedder: { id: "fake:b:128", lexicalOnly: false }, chunks: 3, vectorized: 0, stale: 3 });
      switched.release();
      const response = await second.inject({ method: "POST", url: "/api/vectors/revectorize", headers: { cookie }, payload: {} });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ processed: 3 });
      const embedders = (await sql<{ id: string; dimensions: number }>`SELECT DISTINCT embedder_id AS id, dimensions FROM chunk_vectors`.execute(t.store.db))
        .rows;
      expect(embedders).toEqual([{ id: "fake:b:128", dimensions: 128 }]);
      const found = (await second.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query: "automobile" } })).json();
      expect(found[0].content).toBe("Vehicle fleet costs fell.");
    } finally {
      switched.release();
      await second.close();
    }
  });

  it("counts in words that agree with the number: 1 chunk, 1 vector, 1 file", async () => {
    const cookie = await start();
    await seedKnowledge(t, { userId: DEMO_USER, name: "memo.txt", chunks: ["The board meets on Thursday."] });
    const call = (url: string) => t.app.inject({ method: "POST", url, headers: { cookie }, payload: {} });
    const exported = (await t.app.inject({ method: "GET", url: "/api/export_vector_db", headers: { cookie } })).rawPayload;

    expect((await call("/api/vectors/revectorize")).json().message).toBe("Search is ready again for 1 passage.");
    expect((await call("/api/reset_vector_db")).json().message).toMatch(/^Vector database reset: 1 vector removed\./);
    const { payload, headers } = multipart("backup.zip", exported);
    const imported = await t.app.inject({ method: "POST", url: "/api/import_vector_db", headers: { cookie, ...headers }, payload });
    expect(imported.json().message).toMatch(/^Imported 1 file from the backup\./);
  });

  it("says plainly that there is nothing to re-vectorize without an embedder", async () => {
    t = await createTestApp();
    const cookie = await t.login();
    const response = await t.app.inject({ method: "POST", url: "/api/vectors/revectorize", headers: { cookie }, payload: {} });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(/No embedding model is configured/);
  });
});
