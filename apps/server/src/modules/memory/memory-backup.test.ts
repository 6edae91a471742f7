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

const memories = async () => ((await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } })).json() as any[]).map((memory) => [memory.content, memory.source]);
const add = (content: string) => t.app.inject({ method: "POST", url: "/api/memories", headers: { cookie }, payload: { content } });

async function importZip(archive: Buffer) {
  const boundary = "----sage-memory-boundary";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    archive,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({ method: "POST", url: "/api/import_vector_db", headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` }, payload });
}

describe("memories in the backup", () => {
  it("are exported, and an import puts them back in place of the current ones", async () => {
    await add("Anna Berg is my chief of staff");
    await add("I prefer emails under 100 words");
    const archive = (await t.app.inject({ method: "GET", url: "/api/export_vector_db", headers: { cookie } })).rawPayload;
    const list = (await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } })).json() as any[];
    for (const memory of list) await t.app.inject({ method: "DELETE", url: `/api/memories/${memory.id}`, headers: { cookie } });
    await add("A fact added after the export");

    const imported = await importZip(archive);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await memories()).toEqual([
      ["Anna Berg is my chief of staff", "user"],
      ["I prefer emails under 100 words", "user"],
    ]);
  });

  it("leaves the memories alone when the backup predates them (no memories.jsonl)", async () => {
    await add("Anna Berg is my chief of staff");
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify({ format: "sage-vector-db", version: 1, embedder: null, counts: { items: 0, chunks: 0, vectors: 0 } })), "manifest.json");
    for (const name of ["items.jsonl", "chunks.jsonl", "vectors.jsonl"]) zip.addBuffer(Buffer.from(""), name);
    zip.end();
    const parts: Buffer[] = [];
    await new Promise<void>((resolve) => zip.outputStream.on("data", (part: Buffer) => parts.push(part)).on("end", () => resolve()));
    expect((await importZip(Buffer.concat(parts))).statusCode).toBe(200);
    expect(await memories()).toEqual([["Anna Berg is my chief of staff", "user"]]);
  });
});
