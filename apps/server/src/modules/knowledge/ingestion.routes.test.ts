import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UNSUPPORTED_FILE_TYPE_MESSAGE, UNSUPPORTED_FILE_TYPE_TITLE } from "@sage/contracts/knowledge";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { makeManyPagePdf } from "../../documents/test/many-page-pdf.ts";
import { makeBrokenDocx, makeDocx, makeImageOnlyPdf, makePdf } from "../../documents/test/test-documents.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { VECTOR_WARNING } from "./ingestion.ts";

/** What the user is told of a scan with no readable text (documents/converters/convert-pdf.ts). */
const SCANNED_PDF_REASON = "No text found: the pages have no readable text layer, and text recognition (OCR) found no words on them.";

let t: TestApp;
let kb: ReturnType<typeof knowledgeClient>;
let site: Server;
let siteOrigin: string;

const ARTICLE = `<html><head><title>Orchard Almanac</title></head><body><nav>Menu Shop Login</nav><article>
  <h1>Orchard Almanac</h1>${"<p>Quince trees flower late and need a sheltered corner with deep loamy soil to fruit well every year.</p>".repeat(6)}
  <h2>Pruning</h2><p>Prune quince in winter, removing crossing branches and opening the centre to light.</p></article></body></html>`;

beforeAll(async () => {
  const pdf = await makePdf([["Linked PDF about pelicans."]]);
  site = createServer((request, response) => {
    if (request.url === "/garden/orchard-almanac.html") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return response.end(ARTICLE);
    }
    if (request.url === "/files/pelicans.pdf") {
      response.writeHead(200, { "content-type": "application/pdf" });
      return response.end(pdf);
    }
    if (request.url === "/plain") {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      return response.end("Plain text page about walruses.");
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => site.close());
afterEach(async () => t?.close());

async function start(env: Record<string, string> = {}) {
  t = await createTestApp({ env });
  kb = knowledgeClient(t, await t.login());
}

/** An embedder that works until told to fail, as a provider whose service goes down would. */
async function startWithSwitchableEmbedder() {
  const embedder = createFakeEmbedder();
  const state = { failing: false };
  const switchable = {
    ...embedder,
    embed: (texts: string[], options: { kind: "query" | "document" }) =>
      state.failing ? Promise.reject(new Error("embedder down")) : embedder.embed(texts, options),
  };
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder: switchable }) });
  kb = knowledgeClient(t, await t.login());
  return { calls: embedder.calls, fail: () => (state.failing = true) };
}

describe("upload ingestion", () => {
  it("ingests a multi-page PDF with a table: page sources, table text and a search hit", async () => {
    await start();
    const pdf = await makePdf([["Chapter one: the Zephyr programme begins."], ["Budget overview follows."], ["Chapter three: the Zephyr programme ends."]], {
      page: 2,
      rows: [
        ["Item", "Cost"],
        ["Telescope", "4200"],
      ],
    });
    const response = await kb.upload(
      { userId: 3, conversationId: 0, parentId: 0, description: "Programme" },
      { filename: "Zephyr.PDF", content: pdf, type: "application/pdf" },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: "success", chunks_processed: 3, processingResult: { status: "success" } });
    expect(body.file).toMatchObject({ name: "Zephyr.PDF", type: "file", status: "ready", size: pdf.length, chunkCount: 3 });
    const chunks = await kb.chunks(body.file.id);
    expect(chunks.map((chunk) => chunk.source)).toEqual(["page 1", "page 2", "page 3"]);
    expect(chunks[1]!.content).toContain("Item Cost\nTelescope 4200");

    const search = await t.app.inject({
      method: "POST",
      url: "/api/search",
      headers: { cookie: await t.login() },
      payload: { query: "telescope cost", limit: 5 },
    });
    expect(search.statusCode).toBe(200);
    expect(search.json()[0].content).toContain("Telescope 4200");
  });

  it("ingests a DOCX keeping its list and table as text", async () => {
    await start();
    const response = await kb.upload({}, { filename: "plan.docx", content: await makeDocx() });
    expect(response.json()).toMatchObject({ status: "success", file: { status: "ready" } });
    const text = (await kb.chunks(response.json().file.id)).map((chunk) => chunk.content).join("\n");
    expect(text).toContain("- Buy more telescopes\n- Hire two astronomers");
    expect(text).toContain("| Telescope | 4200 EUR |");
  });

  it("fails a DOCX with broken XML in plain words, never the XML parser's own text", async () => {
    await start();
    const response = await kb.upload({}, { filename: "minutes.docx", content: await makeBrokenDocx() });
    expect(response.json().file).toMatchObject({
      status: "failed",
      statusReason: "The DOCX file could not be read: the file is damaged, or it is not the type its name says.",
    });
  });

  it("keeps a PDF over the page limit with its first pages searchable, saying how many were left out", async () => {
    await start({ SAGE_DOCUMENT_MAX_PAGES: "40" });
    const response = await kb.upload({}, { filename: "ledger.pdf", content: makeManyPagePdf(2000) });
    const file = response.json().file;
    expect(file).toMatchObject({
      status: "ready",
      statusReason: "Saved, but only its first 40 of 2,000 pages were read (the limit for one document): the rest is not searchable",
    });
    const sources = (await kb.chunks(file.id)).map((chunk) => chunk.source);
    expect(sources).toContain("page 40");
    expect(sources).not.toContain("page 41");
  });

  it("ingests UTF-16 and UTF-8 text files", async () => {
    await start();
    const sentence = "Überprüfung der Bücher: naïve café owners count crème brûlée.";
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sentence, "utf16le")]);
    const first = await kb.upload({}, { filename: "german.txt", content: utf16 });
    expect((await kb.chunks(first.json().file.id)).map((chunk) => chunk.content)).toEqual([sentence]);
    const second = await kb.upload({}, { filename: "german-utf8.txt", content: Buffer.from(sentence, "utf8") });
    expect((await kb.chunks(second.json().file.id)).map((chunk) => chunk.content)).toEqual([sentence]);
  });

  it("refuses other file types with 415 and the supported list, storing nothing", async () => {
    await start();
    const response = await kb.upload({}, { filename: "sheet.numbers", content: Buffer.from("PK fake") });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toBe(`${UNSUPPORTED_FILE_TYPE_TITLE}. ${UNSUPPORTED_FILE_TYPE_MESSAGE}`);
    expect((await kb.call("GET", "/api/files")).json()).toEqual([]);
  });

  it("keeps a scanned PDF and reports it as saved but not processed, with the reason", async () => {
    await start();
    const response = await kb.upload({}, { filename: "scan.pdf", content: await makeImageOnlyPdf() });
    // Text recognition of the page usually finishes within the request; on a loaded machine it continues as a job.
    if (response.statusCode === 200) {
      expect(response.json()).toMatchObject({
        status: "stored",
        chunks_processed: 0,
        processingResult: { status: "stored", error: SCANNED_PDF_REASON },
        file: { status: "stored", statusReason: SCANNED_PDF_REASON },
      });
    } else {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({ status: "processing_in_background" });
    }
    await t.jobs.idle();
    const item = (await kb.call("GET", "/api/files")).json()[0];
    expect(item).toMatchObject({ status: "stored", statusReason: SCANNED_PDF_REASON, chunkCount: 0 });
  });

  it("marks a corrupt file failed with the reason, and a retry runs it again", async () => {
    await start();
    const response = await kb.upload({}, { filename: "broken.pdf", content: Buffer.from("%PDF-1.4 garbage") });
    expect(response.json()).toMatchObject({ status: "stored", processingResult: { status: "failed" }, file: { status: "failed" } });
    expect(response.json().processingResult.error).toMatch(/The PDF could not be read/);
    const retry = await kb.call("POST", `/api/files/${response.json().file.id}/retry`);
    expect(retry.statusCode).toBe(202);
    await t.jobs.idle();
    const item = (await kb.call("GET", "/api/files")).json()[0];
    expect(item.status).toBe("failed");
    const jobs = await t.store.db.selectFrom("jobs").select(["status", "error"]).where("itemId", "=", item.id).orderBy("id").execute();
    expect(jobs.map((job) => job.status)).toEqual(["failed", "failed"]);
  });

  it("does not duplicate chunks when the same bytes are uploaded to the same folder again", async () => {
    await start();
    const file = { filename: "facts.txt", content: Buffer.from("Identical content about otters.") };
    const first = (await kb.upload({}, file)).json();
    const second = await kb.upload({}, file);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ status: "duplicate", chunks_processed: 1, file: { id: first.file.id } });
    expect((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM chunks`.execute(t.store.db)).rows).toEqual([{ n: 1 }]);
    const folder = await kb.folder("Elsewhere");
    expect((await kb.upload({ parentId: folder.id }, file)).json().status).toBe("success");
  });

  it("answers a large upload at once and finishes it as a background job", async () => {
    await start();
    const paragraph = "Large documents are processed in the background while the user keeps working. ";
    const content = Buffer.from(Array.from({ length: 14_000 }, (_, index) => `${paragraph}${index}.`).join("\n\n"));
    expect(content.length).toBeGreaterThan(1_048_576);
    const response = await kb.upload({}, { filename: "big.txt", content });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ status: "processing_in_background", chunks_processed: 0 });
    await t.jobs.idle();
    const item = (await kb.call("GET", "/api/files")).json()[0];
    expect(item.status).toBe("ready");
    expect(item.chunkCount).toBeGreaterThan(1000);
  });

  it("embeds the chunks after storing them; a failed embedding is only a warning", async () => {
    const embedder = await startWithSwitchableEmbedder();
    const ok = (await kb.upload({}, { filename: "a.txt", content: Buffer.from("Vector me") })).json();
    expect(ok).toMatchObject({ status: "success", file: { status: "ready", statusReason: null } });
    expect(embedder.calls).toEqual([{ texts: ["a.txt\nVector me"], kind: "document" }]);
    embedder.fail();
    const warned = (await kb.upload({}, { filename: "b.txt", content: Buffer.from("Vector me too") })).json();
    expect(warned).toMatchObject({ status: "success", chunks_processed: 1, file: { status: "ready", statusReason: VECTOR_WARNING } });
  });
});

describe("restart", () => {
  /** A note whose ingestion job was `processing` when the server died, after `attempts` runs. */
  async function interruptedNote(content: string, attempts: number): Promise<number> {
    t = await createTestApp();
    const now = new Date().toISOString();
    const { id: itemId } = await t.store.db
      .insertInto("knowledgeItems")
      .values({ userId: 3, type: "note", name: "n", path: "n", status: "processing", createdAt: now, updatedAt: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.store.db.insertInto("knowledgeItemTexts").values({ itemId, content }).execute();
    await t.store.db
      .insertInto("jobs")
      .values({
        userId: 3,
        kind: "knowledge.ingest",
        itemId,
        status: "processing",
        payload: JSON.stringify({ itemId }),
        attempts,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    return itemId;
  }

  it("resumes an ingestion job that a crash interrupted", async () => {
    const itemId = await interruptedNote("Interrupted note about herons.", 1);
    kb = knowledgeClient(t, await t.login()); // the first request makes the app ready, which starts the queue
    await t.jobs.idle();
    expect((await kb.call("GET", "/api/files")).json()[0]).toMatchObject({ id: itemId, status: "ready", chunkCount: 1 });
  });

  it("does not resume an ingestion job a second time: interrupted again, the item fails with the reason", async () => {
    const itemId = await interruptedNote("A note the server died on twice.", 2);
    kb = knowledgeClient(t, await t.login());
    await t.jobs.idle();
    const reason = "Interrupted by a server restart 2 times, so it was not resumed again";
    expect((await kb.call("GET", "/api/files")).json()[0]).toMatchObject({ id: itemId, status: "failed", statusReason: reason, chunkCount: 0 });
    expect(await t.store.db.selectFrom("jobs").select(["status", "attempts", "error"]).where("itemId", "=", itemId).orderBy("id").executeTakeFirst()).toEqual({
      status: "failed",
      attempts: 2,
      error: reason,
    });
  });
});

describe("URLs and notes", () => {
  it("fetches a page, keeps the readable article and names it from host and last path segment", async () => {
    await start({ SAGE_FETCH_ALLOW_PRIVATE: "true" });
    const url = `${siteOrigin}/garden/orchard-almanac.html`;
    const response = await kb.call("POST", "/api/process_url", { url, userId: 3, conversationId: 0, parentId: 0, description: "Quinces" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: "success", url_info: { name: "127.0.0.1 - orchard-almanac", url, user_id: 3, conversation_id: 0, parent_id: 0 } });
    expect(body.chunks_processed).toBeGreaterThan(0);
    const chunks = await kb.chunks(body.url_info.file_id);
    const text = chunks.map((chunk) => chunk.content).join("\n");
    expect(text).toContain("Quince trees flower late");
    expect(text).not.toContain("Menu Shop Login");
    expect(chunks.map((chunk) => chunk.source)).toContain("Pruning");
  });

  it("handles PDFs and plain text by URL with their converters", async () => {
    await start({ SAGE_FETCH_ALLOW_PRIVATE: "true" });
    const pdf = (await kb.call("POST", "/api/process_url", { url: `${siteOrigin}/files/pelicans.pdf` })).json();
    expect(pdf.url_info.name).toBe("127.0.0.1 - pelicans");
    expect(await kb.chunks(pdf.url_info.file_id)).toEqual([expect.objectContaining({ source: "page 1", content: "Linked PDF about pelicans." })]);
    const plain = (await kb.call("POST", "/api/process_url", { url: `${siteOrigin}/plain` })).json();
    expect((await kb.chunks(plain.url_info.file_id)).map((chunk) => chunk.content)).toEqual(["Plain text page about walruses."]);
  });

  it("refuses a private address unless allowed, keeping the link as a failed reference entry", async () => {
    await start();
    const response = await kb.call("POST", "/api/process_url", { url: `${siteOrigin}/plain` });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: "failed", chunks_processed: 0 });
    expect(response.json().error).toMatch(/local or private network address/);
    const items = (await kb.call("GET", "/api/files")).json();
    expect(items).toEqual([expect.objectContaining({ type: "url", status: "failed", url: `${siteOrigin}/plain` })]);
    expect((await kb.call("POST", "/api/process_url", { url: "ftp://example.com/x" })).statusCode).toBe(400);
  });

  it("registers a reference URL entry through POST /api/files", async () => {
    await start();
    const response = await kb.call("POST", "/api/files", {
      name: "",
      type: "url",
      userId: 3,
      conversationId: 0,
      parentId: 0,
      path: "",
      content: "https://example.com/docs/guide.html",
      description: "Docs",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ type: "url", name: "example.com - guide", url: "https://example.com/docs/guide.html", status: "stored" });
  });

  it("creates a note named from its first three words, then vectorises it", async () => {
    await start();
    const content = "Remember the quarterly supplier review with Dana on Friday.";
    const created = await kb.call("POST", "/api/files", {
      name: "",
      type: "note",
      userId: 3,
      conversationId: 0,
      parentId: 0,
      path: "",
      content,
      description: "Reminder note",
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: "Remember the quarterly...", type: "note", content });
    const processed = await kb.call("POST", "/api/process-note", { ...(created.json() as object), fileId: created.json().id });
    expect(processed.json()).toMatchObject({ status: "success", chunks_processed: 1, file: { status: "ready" } });
    expect(processed.json().warning).toBeUndefined();
    expect((await kb.chunks(created.json().id)).map((chunk) => chunk.content)).toEqual([content]);
  });

  it("reports a note whose vectorisation failed with a warning, still saved and found by its words", async () => {
    (await startWithSwitchableEmbedder()).fail();
    const response = await kb.call("POST", "/api/process-note", { type: "note", content: "Short note text here" });
    // A short note is indexed for word search before the answer; its vectors come after it (issue 35).
    expect(response.json()).toMatchObject({ status: "success", chunks_processed: 1, file: { status: "ready" } });
    const id = response.json().file.id;
    await expect.poll(async () => ((await kb.call("GET", "/api/files")).json() as any[]).find((file) => file.id === id)?.statusReason).toBe(VECTOR_WARNING);
    expect((await kb.chunks(id)).map((chunk) => chunk.content)).toEqual(["Short note text here"]);
  });
});
