import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNSUPPORTED_FILE_TYPE_MESSAGE, UNSUPPORTED_FILE_TYPE_TITLE } from "@sage/contracts/knowledge";
import { makeDocx, makePdf } from "../documents/test/test-documents.ts";
import { storeChanges } from "../test/store-changes.ts";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

/**
 * Hostile uploads: too big, wrong extension, mislabelled, truncated and random bytes. Each is refused up front
 * (413/415, nothing stored) or ends as a failed item whose job carries the reason; the server stays up and a
 * good upload sent alongside is processed normally.
 */
const LIMIT = 1_048_576;
let t: TestApp;
let kb: ReturnType<typeof knowledgeClient>;

beforeAll(async () => {
  t = await createTestApp({ env: { SAGE_MAX_UPLOAD_BYTES: String(LIMIT) } });
  kb = knowledgeClient(t, await t.login());
});
afterAll(async () => t?.close());

const storedBlobs = () => {
  const walk = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [entry.name]));
    } catch {
      return [];
    }
  };
  // Uploads live in files.dir (data/uploads on SQLite, their own folder on PostgreSQL).
  return walk(path.join(t.config.dataDir, "blobs")).length + walk(t.config.files.dir).length;
};
const totalChanges = () => storeChanges(t.store);
const alive = async () => (await t.app.inject({ method: "GET", url: "/api/health" })).statusCode === 200;

describe("uploads refused before anything is stored", () => {
  it("answers 413 with the limit for a file over the upload size, keeping nothing", async () => {
    const before = { changes: await totalChanges(), blobs: storedBlobs() };
    const response = await kb.upload({}, { filename: "huge.txt", content: Buffer.alloc(LIMIT + 10_000, "a") });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe("File is larger than the 1 MB limit");
    expect({ changes: await totalChanges(), blobs: storedBlobs() }).toEqual(before);
    expect(await alive()).toBe(true);
  });

  it.each(["virus.exe", "page.php", "report.pdf.exe", "archive.7z", "noextension", ".pdf.", "sheet.numbers", "script.js", "image.svg"])(
    "answers 415 with the supported list for %s",
    async (filename) => {
      const before = { changes: await totalChanges(), blobs: storedBlobs() };
      const response = await kb.upload({}, { filename, content: Buffer.from("%PDF-1.4 looks like a pdf") });
      expect(response.statusCode).toBe(415);
      expect(response.json().error).toBe(`${UNSUPPORTED_FILE_TYPE_TITLE}. ${UNSUPPORTED_FILE_TYPE_MESSAGE}`);
      expect({ changes: await totalChanges(), blobs: storedBlobs() }).toEqual(before);
    },
  );

  // A .zip is unpacked into a folder (decision 016); one that is not really a zip is refused the same way.
  it("answers 400 for a file named .zip that is not a zip archive, changing nothing", async () => {
    const before = { changes: await totalChanges(), blobs: storedBlobs() };
    const response = await kb.upload({}, { filename: "archive.zip", content: Buffer.from("%PDF-1.4 looks like a pdf") });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "invalid_archive" });
    expect({ changes: await totalChanges(), blobs: storedBlobs() }).toEqual(before);
  });
});

describe("broken and mislabelled files", () => {
  it("ends each as a failed item with a reason while a good upload alongside succeeds", async () => {
    const pdf = await makePdf([["Page one about herons."], ["Page two about egrets."], ["Page three about storks."]]);
    const docx = await makeDocx();
    const bad: Array<{ label: string; filename: string; content: Buffer; reason: RegExp }> = [
      {
        label: "text saved as .pdf",
        filename: "notes.pdf",
        content: Buffer.from("Just some plain text, not a PDF at all.\n".repeat(20)),
        reason: /PDF could not be read/,
      },
      {
        label: "text saved as .docx",
        filename: "notes.docx",
        content: Buffer.from("Plain text pretending to be Word."),
        reason: /DOCX file could not be read/,
      },
      {
        label: "text saved as .doc",
        filename: "notes.doc",
        content: Buffer.from("Plain text pretending to be old Word."),
        reason: /DOC file could not be read/,
      },
      { label: "PDF saved as .docx", filename: "report.docx", content: pdf, reason: /DOCX file could not be read/ },
      { label: "DOCX saved as .pdf", filename: "plan.pdf", content: docx, reason: /PDF could not be read/ },
      { label: "truncated PDF", filename: "cut.pdf", content: pdf.subarray(0, Math.floor(pdf.length / 2)), reason: /PDF could not be read|PDF reader/ },
      { label: "truncated DOCX", filename: "cut.docx", content: docx.subarray(0, Math.floor(docx.length / 2)), reason: /DOCX file could not be read/ },
      {
        label: "truncated OLE DOC",
        filename: "cut.doc",
        content: Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), randomBytes(600)]),
        reason: /DOC file could not be read/,
      },
      { label: "random-byte PDF", filename: "noise.pdf", content: randomBytes(20_000), reason: /PDF could not be read|PDF reader/ },
      {
        label: "random-byte PDF with header",
        filename: "noise2.pdf",
        content: Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(20_000)]),
        reason: /PDF could not be read|PDF reader/,
      },
      { label: "random-byte DOCX", filename: "noise.docx", content: randomBytes(20_000), reason: /DOCX file could not be read/ },
      { label: "random-byte DOC", filename: "noise.doc", content: randomBytes(20_000), reason: /DOC file could not be read/ },
      {
        label: "zip-headed DOC",
        filename: "zipped.doc",
        content: Buffer.concat([Buffer.from("PK\u0003\u0004"), randomBytes(5_000)]),
        reason: /DOCX file could not be read/,
      },
    ];
    // Distinct bytes: an upload identical to one still queued would be answered as its duplicate.
    const good = { filename: "good.pdf", content: await makePdf([["Good one about cranes."], ["Good two about ibises."], ["Good three about spoonbills."]]) };
    const responses = await Promise.all([...bad.map((file) => kb.upload({}, file)), kb.upload({}, good)]);
    await t.jobs.idle();
    expect(await alive()).toBe(true);

    for (const [index, file] of bad.entries()) {
      const response = responses[index]!;
      expect(response.statusCode, file.label).toBeLessThan(500);
      const id = response.json().file.id as number;
      const item = (await kb.call("GET", "/api/files")).json().find((entry: { id: number }) => entry.id === id);
      expect(item, file.label).toMatchObject({ status: "failed", chunkCount: 0 });
      expect(item.statusReason, file.label).toMatch(file.reason);
      const job = await t.store.db.selectFrom("jobs").select(["status", "error"]).where("itemId", "=", id).orderBy("id", "desc").executeTakeFirstOrThrow();
      expect(job.status, file.label).toBe("failed");
      expect(job.error, file.label).toBe(item.statusReason);
    }
    // Queued behind the 13 broken files (each read in the conversion process), the good one may outlast the
    // request's inline wait and finish as a job: either way it ends ready with its 3 pages.
    const goodResponse = responses[bad.length]!.json();
    expect(["success", "processing_in_background"]).toContain(goodResponse.status);
    const goodItem = (await kb.call("GET", "/api/files")).json().find((entry: { id: number }) => entry.id === goodResponse.file.id);
    expect(goodItem).toMatchObject({ status: "ready", chunkCount: 3 });
    const stuck = await t.store.db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "in", ["queued", "processing"])
      .executeTakeFirstOrThrow();
    expect(stuck).toEqual({ n: 0 });
  });

  it("stores random bytes named .txt without crashing (decoded as Windows-1252 text)", async () => {
    const response = await kb.upload({}, { filename: "noise.txt", content: randomBytes(5_000) });
    expect(response.statusCode).toBe(200);
    expect(["ready", "stored"]).toContain(response.json().file.status);
    expect(await alive()).toBe(true);
  });
});
