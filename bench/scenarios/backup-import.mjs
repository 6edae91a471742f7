import { openAsBlob, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { figure, percentile } from "../lib/figure.mjs";
import { writeBackup } from "../lib/backup-archive.mjs";
import { startFakeEmbedder } from "../lib/fake-embedder.mjs";
import { makeDataDir, memoryOf, ROOT, startSage } from "../lib/server.mjs";
import { probeHealthDuring } from "../lib/health-probe.mjs";

const requireFromServer = createRequire(path.join(ROOT, "apps/server/package.json"));
const BetterSqlite3 = requireFromServer("better-sqlite3");
const { request } = requireFromServer("undici");

const EMBEDDER = { id: "gemini:gemini-embedding-001:768", dimensions: 768 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /api/import_vector_db with the zip at `file`; answers the reply and how long it took. */
async function importZip(sage, cookie, file) {
  const form = new FormData();
  form.append("file", await openAsBlob(file, { type: "application/zip" }), "vector_db_backup.zip");
  const startedAt = performance.now();
  const response = await fetch(`${sage.url}/api/import_vector_db`, { method: "POST", headers: { cookie }, body: form });
  const body = await response.text();
  if (!response.ok) throw new Error(`import: ${response.status} ${body.slice(0, 300)}`);
  return { ms: performance.now() - startedAt, body: JSON.parse(body) };
}

/** GET /api/health one request after another (from a process of its own) while `work` runs. */
const probeHealth = (sage, work) => probeHealthDuring(sage.url, work, 5);

/**
 * The least work that produces the same listing: one SQL statement making each row's JSON (the API's fields, an
 * item's text from knowledge_item_texts) in the listing's order, read on a read-only connection to the server's database and joined into one array. Best of 3.
 */
function bareListingMs(dataDir, userId) {
  const db = new BetterSqlite3(path.join(dataDir, "sage.db"), { readonly: true });
  try {
    const statement = db
      .prepare(
        `SELECT json_object('id', id, 'name', name, 'type', type, 'path', path, 'description', description,
           'content', coalesce(texts.content, ''), 'url', url, 'parentId', coalesce(parent_id, 0), 'userId', user_id,
           'conversationId', coalesce(conversation_id, 0), 'size', size, 'status', status, 'statusReason', status_reason,
           'chunkCount', chunk_count, 'ocrPages', json(ocr_pages), 'ocrFailedPages', json(ocr_failed_pages), 'createdAt', created_at)
         FROM knowledge_items LEFT JOIN knowledge_item_texts texts ON texts.item_id = knowledge_items.id
         WHERE user_id = ? ORDER BY type DESC, name, id`,
      )
      .pluck();
    const runs = [];
    for (let run = 0; run < 3; run++) {
      const startedAt = performance.now();
      const parts = [];
      for (const json of statement.iterate(userId)) parts.push(json);
      Buffer.byteLength(`[${parts.join(",")}]`);
      runs.push(performance.now() - startedAt);
    }
    return Math.min(...runs);
  } finally {
    db.close();
  }
}

/**
 * Importing backups while /api/health is probed: a ~100 MB backup (chunks with 768-d vectors from the server's
 * own embedder, so they are kept) gives `health.p99_during_import`; a backup of many small notes gives
 * `import.items_per_s`, and then how long GET /api/files takes for that user. The limit for the health p99 is
 * the same probe against the idle server.
 */
export async function backupImport({ quick }) {
  const scratch = makeDataDir("backup-zips");
  const fake = await startFakeEmbedder();
  const sage = await startSage({ label: "backup", env: fake.envFor(768) });
  try {
    const cookie = await sage.login();
    const idle = await probeHealth(sage, () => sleep(quick ? 1000 : 3000));

    const bigFile = path.join(scratch, "big.zip");
    const big = await writeBackup(bigFile, { items: quick ? 300 : 1_550, folders: 20, chunksPerItem: 20, chunkChars: 900, embedder: EMBEDDER });
    const bigBytes = statSync(bigFile).size;
    const during = await probeHealth(sage, () => importZip(sage, cookie, bigFile));

    const manyFile = path.join(scratch, "many.zip");
    const manyItems = quick ? 50_000 : 300_000;
    const many = await writeBackup(manyFile, { items: manyItems, folders: 100, chunksPerItem: 1, chunkChars: 120, seed: 5 });
    const manyBytes = statSync(manyFile).size;
    // A server without an embedder: these notes hold no vectors, and with one the import is followed by embedding
    // 300,000 chunks, which would share the event loop with the listing measured after it.
    const textOnly = await startSage({ label: "backup-texts", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" } });
    const listMs = [];
    let listBytes = 0;
    let listLimitMs = NaN;
    let rssBeforeListMb = 0;
    let rssDuringListMb = 0;
    let manyImport;
    try {
      const textCookie = await textOnly.login();
      manyImport = await probeHealth(textOnly, () => importZip(textOnly, textCookie, manyFile));
      rssBeforeListMb = memoryOf(textOnly.pid).rssMb;
      const sampler = setInterval(() => (rssDuringListMb = Math.max(rssDuringListMb, memoryOf(textOnly.pid).rssMb)), 20);
      try {
        for (let run = 0; run < 3; run++) {
          const startedAt = performance.now();
          // undici's request(), the body counted as it streams: fetch() + arrayBuffer() spent 6-7 s of its own on
          // these 110 MB, which curl receives in 2.6-2.8 s from the same server.
          const response = await request(`${textOnly.url}/api/files?userId=3`, { headers: { cookie: textCookie } });
          if (response.statusCode !== 200) throw new Error(`GET /api/files answered ${response.statusCode}`);
          listBytes = 0;
          for await (const part of response.body) listBytes += part.length;
          listMs.push(performance.now() - startedAt);
        }
      } finally {
        clearInterval(sampler);
      }
      listLimitMs = bareListingMs(textOnly.dataDir, 3);
    } finally {
      await textOnly.stop();
    }

    const p99 = percentile(during.latencies, 99);
    return [
      figure({
        name: "health.p99_during_import",
        value: p99,
        unit: "ms",
        limit: percentile(idle.latencies, 99),
        better: "lower",
        target: "<= 50 ms",
        params: {
          zipMb: +(bigBytes / 2 ** 20).toFixed(1),
          ...big,
          importMs: Math.round(during.result.ms),
          probes: during.latencies.length,
          failedProbes: during.failures.length,
          maxMs: Math.round(Math.max(...during.latencies)),
          note: "limit = the same probe against the idle server",
        },
      }),
      figure({
        name: "import.items_per_s",
        value: many.items / (manyImport.result.ms / 1000),
        unit: "items/s",
        better: "higher",
        params: {
          zipMb: +(manyBytes / 2 ** 20).toFixed(1),
          ...many,
          importMs: Math.round(manyImport.result.ms),
          healthP99Ms: Math.round(percentile(manyImport.latencies, 99)),
          healthMaxMs: Math.round(Math.max(...manyImport.latencies)),
          healthFailedProbes: manyImport.failures.length,
          bigItemsPerS: Math.round(big.items / (during.result.ms / 1000)),
        },
      }),
      figure({
        name: "files.list_ms_300k",
        value: percentile(listMs, 50),
        unit: "ms",
        limit: listLimitMs,
        better: "lower",
        target: "<= 2x limit",
        params: {
          items: many.items,
          responseMb: +(listBytes / 2 ** 20).toFixed(1),
          runsMs: listMs.map(Math.round),
          serverRssBeforeMb: Math.round(rssBeforeListMb),
          serverRssPeakDuringMb: Math.round(rssDuringListMb),
          note: "limit = the same rows' JSON made by one SQL statement on a read-only connection and joined, best of 3",
        },
      }),
      figure({
        name: "files.list_rss_added",
        value: Math.max(0, rssDuringListMb - rssBeforeListMb),
        unit: "MB",
        better: "lower",
        target: "<= 50 MB",
        params: {
          items: many.items,
          responseMb: +(listBytes / 2 ** 20).toFixed(1),
          note: "server RSS sampled every 20 ms during 3 listings, peak minus before",
        },
      }),
    ];
  } finally {
    await sage.stop();
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
