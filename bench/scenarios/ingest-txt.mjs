import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { passage } from "../lib/corpus.mjs";
import { figure, round } from "../lib/figure.mjs";
import { jobDurationMs, uploadAndWait, waitForItem } from "../lib/ingest.mjs";
import { rng } from "../lib/seed-chunks.mjs";
import { makeDataDir, ROOT, startSage } from "../lib/server.mjs";

const ingestion = path.join(ROOT, "apps/server/src/modules/knowledge/ingestion");

/** Notes-like text: headings every ~20 paragraphs, paragraphs of a few sentences. */
function notesText(bytes, seed) {
  const random = rng(seed);
  const parts = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const part = (index % 20 === 0 ? `# Section ${index / 20 + 1}\n\n` : "") + passage(random, index % 300, 300 + Math.floor(random() * 700));
    parts.push(part);
    size += part.length + 2;
  }
  return parts.join("\n\n");
}

/** The limit: the knowledge module's own read + decode + chunk of the same bytes, in this process. */
async function readAndChunkMbPerS(file, runs = 5) {
  const { convertTxt } = await import(path.join(ingestion, "convert-txt.ts"));
  const { chunkSections } = await import(path.join(ingestion, "chunker.ts"));
  let best = Infinity;
  let chunks = 0;
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const startedAt = performance.now();
    const data = readFileSync(file);
    chunks = chunkSections(convertTxt(data).sections).length;
    best = Math.min(best, performance.now() - startedAt);
    bytes = data.length;
  }
  return { mbPerS: bytes / 2 ** 20 / (best / 1000), chunks, ms: best };
}

/**
 * Not the limit, a floor for the profile: the same chunks inserted with one prepared statement in one
 * transaction into a fresh store with SAGE's schema, FTS5 indexing them through its trigger.
 */
async function bareInsertMs(file) {
  const { openStore } = await import(path.join(ROOT, "apps/server/src/store/open-store.ts"));
  const { convertTxt } = await import(path.join(ingestion, "convert-txt.ts"));
  const { chunkSections } = await import(path.join(ingestion, "chunker.ts"));
  const chunks = chunkSections(convertTxt(readFileSync(file)).sections);
  const store = openStore({ dataDir: makeDataDir("txt-floor") });
  try {
    store.sqlite.pragma("foreign_keys = OFF");
    store.sqlite.prepare("INSERT INTO knowledge_items (id, user_id, type, name, path, status, created_at, updated_at) VALUES (1, 1, 'file', 'notes.txt', 'notes.txt', 'ready', '', '')").run();
    const insert = store.sqlite.prepare("INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (1, 1, NULL, ?, ?, ?, '')");
    const startedAt = performance.now();
    store.sqlite.transaction(() => {
      for (const chunk of chunks) insert.run(chunk.position, chunk.source, chunk.content);
    })();
    return performance.now() - startedAt;
  } finally {
    await store.close();
  }
}

/**
 * A text file through POST /api/upload and a long note through POST /api/process-note, no embedder: MB/s from
 * job start to done (chunks stored and indexed by FTS5), beside reading and chunking the same text directly.
 */
export async function ingestTxt({ quick }) {
  const megabytes = quick ? 2 : 8;
  const dir = makeDataDir("txt-input");
  const file = path.join(dir, "notes.txt");
  writeFileSync(file, notesText(megabytes * 2 ** 20, 11));
  const bytes = readFileSync(file);
  const limit = await readAndChunkMbPerS(file);
  const note = notesText(900_000, 12);
  const noteLimit = (() => {
    const noteFile = path.join(dir, "note.txt");
    writeFileSync(noteFile, note);
    return readAndChunkMbPerS(noteFile);
  })();
  const sage = await startSage({ label: "txt", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" } });
  try {
    const cookie = await sage.login();
    const item = await uploadAndWait(sage, cookie, { filename: "notes.txt", bytes, type: "text/plain" });
    const jobMs = jobDurationMs(sage.dataDir, { itemId: item.id });

    const response = await fetch(`${sage.url}/api/process-note`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ content: note }) });
    if (!response.ok) throw new Error(`process-note: ${response.status} ${await response.text()}`);
    const noteItem = await waitForItem(sage, cookie, (await response.json()).file.id);
    const noteJobMs = jobDurationMs(sage.dataDir, { itemId: noteItem.id });
    const noteMb = Buffer.byteLength(note) / 2 ** 20;
    const noteLimitResult = await noteLimit;
    const insertMs = Math.min(await bareInsertMs(file), await bareInsertMs(file));
    return [
      figure({ name: "ingest.txt_mb_per_s", value: bytes.length / 2 ** 20 / (jobMs / 1000), unit: "MB/s", limit: limit.mbPerS, better: "higher", target: ">= 0.5 of limit", params: { megabytes, chunks: item.chunkCount, jobMs, limitMs: round(limit.ms), bareInsertAndFtsMs: round(insertMs, 0) } }),
      figure({ name: "ingest.note_mb_per_s", value: noteMb / (noteJobMs / 1000), unit: "MB/s", limit: noteLimitResult.mbPerS, better: "higher", target: ">= 0.5 of limit", params: { megabytes: round(noteMb), chunks: noteItem.chunkCount, jobMs: noteJobMs, limitMs: round(noteLimitResult.ms) } }),
    ];
  } finally {
    await sage.stop();
  }
}
