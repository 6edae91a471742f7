// Uploading a file to a running SAGE and waiting for its ingestion job, timed from the jobs table.
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /api/upload, then polls GET /api/files until the item is ready (or fails). Returns the item. */
export async function uploadAndWait(sage, cookie, { filename, bytes, type, timeoutMs = 300_000 }) {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type }), filename);
  const response = await fetch(`${sage.url}/api/upload`, { method: "POST", headers: { cookie }, body: form });
  if (!response.ok) throw new Error(`upload of ${filename}: ${response.status} ${await response.text()}`);
  const { file } = await response.json();
  return waitForItem(sage, cookie, file.id, timeoutMs);
}

export async function waitForItem(sage, cookie, itemId, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await (await fetch(`${sage.url}/api/files`, { headers: { cookie } })).json();
    const item = items.find((candidate) => candidate.id === itemId);
    if (item?.status === "ready") return item;
    if (item && (item.status === "failed" || item.status === "stored")) throw new Error(`item ${itemId} ended ${item.status}: ${item.statusReason}`);
    if (Date.now() > deadline) throw new Error(`item ${itemId} still ${item?.status} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Milliseconds from the job's creation (enqueue) to its last update (done), read from the store. */
export function jobDurationMs(dataDir, { itemId, kind }) {
  const db = new Database(path.join(dataDir, "sage.db"), { readonly: true });
  try {
    const row = itemId
      ? db.prepare("SELECT status, created_at AS createdAt, updated_at AS updatedAt FROM jobs WHERE item_id = ? ORDER BY id DESC LIMIT 1").get(itemId)
      : db.prepare("SELECT status, created_at AS createdAt, updated_at AS updatedAt FROM jobs WHERE kind = ? ORDER BY id DESC LIMIT 1").get(kind);
    if (!row || row.status !== "done") throw new Error(`no finished job for ${itemId ?? kind}: ${JSON.stringify(row)}`);
    return Date.parse(row.updatedAt) - Date.parse(row.createdAt);
  } finally {
    db.close();
  }
}
