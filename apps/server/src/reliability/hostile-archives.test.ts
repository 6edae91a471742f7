import { readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { makePdf } from "../documents/test/test-documents.ts";
import { seedKnowledge } from "../modules/retrieval/retrieval-test-helpers.ts";
import { declareSize, overlappingZip } from "../test/make-zip.ts";
import { storeChanges } from "../test/store-changes.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

/**
 * Hostile backups sent to POST /api/import_vector_db: unsafe paths, symlinks, bombs, too many entries, missing or
 * lying manifests, things that are not zips. Every one is a 4xx naming the problem, and the store, the files
 * list and the temporary folder are exactly as before.
 */
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.login();
  await seedKnowledge(t, { userId: 3, name: "keep-me.txt", chunks: ["Existing knowledge that an import must not disturb."] });
});
afterAll(async () => t?.close());

type Entry = { name: string; text?: string; data?: Buffer; mode?: number; compress?: boolean };

/** Ends a zip and collects its bytes. */
function zipBytes(zip: yazl.ZipFile): Promise<Buffer> {
  zip.end();
  const parts: Buffer[] = [];
  return new Promise((resolve) => {
    zip.outputStream.on("data", (part: Buffer) => parts.push(part));
    zip.outputStream.on("end", () => resolve(Buffer.concat(parts)));
  });
}

function zipOf(entries: Entry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    zip.addBuffer(entry.data ?? Buffer.from(entry.text ?? ""), entry.name, { mode: entry.mode, compress: entry.compress ?? true });
  }
  return zipBytes(zip);
}

/** yazl refuses unsafe names, so the zip is built with a same-length placeholder that is then patched in place. */
async function zipWithName(unsafe: string): Promise<Buffer> {
  const placeholder = "q".repeat(unsafe.length);
  const archive = await zipOf([...validEntries(), { name: placeholder, text: "owned" }]);
  return Buffer.from(archive.toString("latin1").replaceAll(placeholder, unsafe), "latin1");
}

const manifest = (counts = { items: 1, chunks: 1, vectors: 0 }, extra: object = {}) =>
  JSON.stringify({ format: "sage-vector-db", version: 1, embedder: null, counts, ...extra });
const ITEM = {
  id: 1,
  parent_id: null,
  conversation_id: null,
  type: "note",
  name: "Imported",
  path: "Imported",
  description: "",
  content: "imported text",
  url: null,
  mime_type: null,
  size: 13,
  created_at: "2025-01-01T00:00:00.000Z",
};
const CHUNK = { id: 1, item_id: 1, position: 0, source: "", content: "imported text" };
const validEntries = (): Entry[] => [
  { name: "manifest.json", text: manifest() },
  { name: "items.jsonl", text: `${JSON.stringify(ITEM)}\n` },
  { name: "chunks.jsonl", text: `${JSON.stringify(CHUNK)}\n` },
  { name: "vectors.jsonl", text: "" },
];

/**
 * A bomb under the expansion cap: `items.jsonl` expands to 600 MB at about 40:1 (words drawn at random deflate no
 * further at level 1), past the longest string V8 can build. `oneLine` makes it a single JSON line; otherwise it is
 * item lines of about 4 KB.
 */
function quietBomb(oneLine: boolean): Promise<Buffer> {
  const words = "board quarterly revenue forecast budget hiring plan strategy market customer product launch roadmap risk compliance audit".split(" ");
  let seed = 1;
  const word = () => words[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % words.length];
  let block = "";
  if (oneLine) while (block.length < 4 * 1_048_576) block += `${word()} `;
  else while (block.length < 4 * 1_048_576) block += `${JSON.stringify({ ...ITEM, content: Array.from({ length: 600 }, word).join(" ") })}\n`;
  const bytes = Buffer.from(block);
  const repeats = Math.ceil((600 * 1_048_576) / bytes.length);
  const entry = Readable.from(
    (function* () {
      if (oneLine) yield Buffer.from(`{"id":1,"parent_id":null,"content":"`);
      for (let index = 0; index < repeats; index++) yield bytes;
      if (oneLine) yield Buffer.from(`"}\n`);
    })(),
  );
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(manifest()), "manifest.json");
  zip.addReadStream(entry, "items.jsonl", { compressionLevel: 1 });
  return zipBytes(zip);
}

/** A valid backup whose `items.jsonl` is followed by `megabytes` of zeros, honestly declared (deflated at level 1). */
function zerosBomb(megabytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(1_048_576);
  const entry = Readable.from(
    (function* () {
      yield Buffer.from(`${JSON.stringify(ITEM)}\n`);
      for (let index = 0; index < megabytes; index++) yield zeros;
    })(),
  );
  const zip = new yazl.ZipFile();
  for (const { name, text } of validEntries().filter((valid) => valid.name !== "items.jsonl")) zip.addBuffer(Buffer.from(text ?? ""), name);
  zip.addReadStream(entry, "items.jsonl", { compressionLevel: 1 });
  return zipBytes(zip);
}

async function importArchive(filename: string, archive: Buffer) {
  const boundary = "----sage-reliability";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`),
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

const snapshot = async () => ({
  changes: await storeChanges(t.store),
  files: (await t.app.inject({ method: "GET", url: "/api/files", headers: { cookie } })).json(),
  chunks: (await sql`SELECT id, item_id, content FROM chunks ORDER BY id`.execute(t.store.db)).rows,
  temp: (() => {
    try {
      return readdirSync(path.join(t.config.dataDir, "tmp"));
    } catch {
      return [];
    }
  })(),
});

const cases: Array<{ class: string; label: string; archive: () => Promise<Buffer>; error: RegExp; filename?: string }> = [
  { class: "path traversal", label: "../ entry", archive: () => zipWithName("../evil.txt"), error: /unsafe path/ },
  { class: "path traversal", label: "nested ../ entry", archive: () => zipWithName("a/../../evil.txt"), error: /unsafe path/ },
  { class: "path traversal", label: "absolute path", archive: () => zipWithName("/etc/cron.d/evil"), error: /unsafe path/ },
  { class: "path traversal", label: "drive letter with slash", archive: () => zipWithName("C:/Windows/evil.txt"), error: /unsafe path/ },
  { class: "path traversal", label: "drive letter with backslash", archive: () => zipWithName("C:\\Windows\\evil.txt"), error: /unsafe path/ },
  { class: "path traversal", label: "backslash traversal", archive: () => zipWithName("..\\..\\evil.txt"), error: /unsafe path/ },
  {
    class: "symlink",
    label: "symlink beside a valid backup",
    archive: () => zipOf([...validEntries(), { name: "link", text: "/etc/passwd", mode: 0o120777 }]),
    error: /symbolic link/,
  },
  {
    class: "symlink",
    label: "manifest.json as a symlink",
    archive: () => zipOf([{ name: "manifest.json", text: "/etc/passwd", mode: 0o120777 }, ...validEntries().slice(1)]),
    error: /symbolic link/,
  },
  {
    class: "zip bomb",
    label: "1.1 GB of zeros in 5 MB",
    archive: () => zerosBomb(1100),
    error: /the archive expands beyond 1 GB, the most a backup's knowledge may hold/,
  },
  {
    class: "zip bomb",
    label: "declares 3.9 GB expanded",
    archive: async () => declareSize(await zipOf(validEntries()), 0xfff00000),
    error: /expands beyond 1 GB/,
  },
  {
    class: "zip bomb",
    label: "declares less than it holds",
    archive: async () => declareSize(await zipOf(validEntries()), 3),
    error: /manifest\.json expands to more than its header declares/,
  },
  {
    class: "zip bomb",
    label: "1,000 entries sharing one deflated MB (overlapping entries)",
    archive: async () =>
      overlappingZip(
        Array.from({ length: 1000 }, (_, index) => `files/${index + 1}`),
        Buffer.alloc(1_048_576),
      ),
    error: /its entries overlap/,
  },
  { class: "zip bomb", label: "600 MB in one line at 40:1", archive: () => quietBomb(true), error: /items\.jsonl has a line longer than 16 MB/ },
  { class: "zip bomb", label: "600 MB of item lines at 40:1", archive: () => quietBomb(false), error: /repeats an id|do not match its manifest counts/ },
  {
    class: "too many entries",
    label: "17 entries",
    archive: () => zipOf([...validEntries(), ...Array.from({ length: 13 }, (_, index) => ({ name: `extra-${index}.txt`, text: "x" }))]),
    error: /17 entries/,
  },
  {
    class: "too many entries",
    label: "2000 entries",
    archive: () => zipOf(Array.from({ length: 2000 }, (_, index) => ({ name: `e${index}`, compress: false }))),
    error: /2000 entries/,
  },
  { class: "manifest", label: "no manifest", archive: () => zipOf(validEntries().slice(1)), error: /no manifest\.json/ },
  {
    class: "manifest",
    label: "manifest not JSON",
    archive: () => zipOf([{ name: "manifest.json", text: "{format: sage" }, ...validEntries().slice(1)]),
    error: /manifest\.json is not JSON/,
  },
  {
    class: "manifest",
    label: "wrong format name",
    archive: () => zipOf([{ name: "manifest.json", text: manifest(undefined, { format: "chroma" }) }, ...validEntries().slice(1)]),
    error: /not a SAGE backup manifest/,
  },
  {
    class: "manifest",
    label: "future version",
    archive: () => zipOf([{ name: "manifest.json", text: manifest(undefined, { version: 99 }) }, ...validEntries().slice(1)]),
    error: /not a SAGE backup manifest/,
  },
  {
    class: "manifest",
    label: "counts lie (more items)",
    archive: () => zipOf([{ name: "manifest.json", text: manifest({ items: 5, chunks: 1, vectors: 0 }) }, ...validEntries().slice(1)]),
    error: /do not match its manifest counts/,
  },
  {
    class: "manifest",
    label: "vectors without an embedder",
    archive: () =>
      zipOf([
        { name: "manifest.json", text: manifest({ items: 1, chunks: 1, vectors: 1 }) },
        ...validEntries().slice(1, 3),
        { name: "vectors.jsonl", text: `${JSON.stringify({ chunk_id: 1, vector: "AAAA" })}\n` },
      ]),
    error: /dimensions/,
  },
  {
    class: "manifest",
    label: "vector of the wrong size",
    archive: () =>
      zipOf([
        { name: "manifest.json", text: manifest({ items: 1, chunks: 1, vectors: 1 }, { embedder: { id: "x", dimensions: 4 } }) },
        ...validEntries().slice(1, 3),
        { name: "vectors.jsonl", text: `${JSON.stringify({ chunk_id: 1, vector: "AAAA" })}\n` },
      ]),
    error: /dimensions/,
  },
  {
    class: "manifest",
    label: "chunk of a missing item",
    archive: () =>
      zipOf([
        ...validEntries().filter((entry) => entry.name !== "chunks.jsonl"),
        { name: "chunks.jsonl", text: `${JSON.stringify({ ...CHUNK, item_id: 9 })}\n` },
      ]),
    error: /missing item/,
  },
  {
    class: "manifest",
    label: "items in a cycle",
    archive: () =>
      zipOf([
        { name: "manifest.json", text: manifest({ items: 2, chunks: 0, vectors: 0 }) },
        {
          name: "items.jsonl",
          text: [
            { ...ITEM, id: 1, parent_id: 2 },
            { ...ITEM, id: 2, parent_id: 1 },
          ]
            .map((item) => JSON.stringify(item))
            .join("\n"),
        },
      ]),
    error: /cycle/,
  },
  { class: "not a zip", label: "text named .zip", archive: async () => Buffer.from("this is not a zip archive"), error: /not a readable ZIP/ },
  { class: "not a zip", label: "empty file", archive: async () => Buffer.alloc(0), error: /not a readable ZIP|Invalid File Format/ },
  { class: "not a zip", label: "gzip named .zip", archive: async () => gzipSync(Buffer.from(manifest())), error: /not a readable ZIP/ },
  { class: "not a zip", label: "PDF named .zip", archive: () => makePdf([["A PDF, not a backup."]]), error: /not a readable ZIP/ },
  { class: "not a zip", label: "truncated backup", archive: async () => (await zipOf(validEntries())).subarray(0, 200), error: /not a readable ZIP|corrupt/ },
  { class: "not a zip", label: "zip under another name", archive: () => zipOf(validEntries()), filename: "backup.zip.txt", error: /Invalid File Format/ },
];

describe("hostile backup archives", () => {
  it.each(cases)("$class: $label is refused and changes nothing", async ({ archive, error, filename }) => {
    const before = await snapshot();
    const response = await importArchive(filename ?? "backup.zip", await archive());
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().error).toMatch(error);
    expect(await snapshot()).toEqual(before);
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });

  it("accepts the same valid backup the hostile ones were built from (control)", async () => {
    const response = await importArchive("backup.zip", await zipOf(validEntries()));
    expect(response.statusCode).toBe(200);
    expect(response.json().files_imported).toBe(1);
    const files = (await t.app.inject({ method: "GET", url: "/api/files", headers: { cookie } })).json();
    expect(files.map((file: { name: string }) => file.name)).toEqual(["Imported"]);
  });
});
