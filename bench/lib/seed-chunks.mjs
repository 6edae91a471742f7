import path from "node:path";
import { createRequire } from "node:module";

import { createLexicalIndex } from "../../apps/server/src/modules/retrieval/index/lexical-index.ts";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");

const WORDS = (
  "board quarterly revenue forecast budget hiring plan strategy market customer product launch roadmap risk " +
  "compliance audit investor meeting agenda email draft presentation outline travel contract partner supplier " +
  "pricing margin growth churn retention pipeline sales marketing campaign brand legal review policy security " +
  "infrastructure cloud migration vendor negotiation acquisition merger dividend capital expenditure operating cash"
).split(" ");

/** Deterministic pseudo-random generator (mulberry32) so every run builds the same data. */
export function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sentence(random, words = 14) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  return out.join(" ") + ".";
}

/** Adds `files` documents of `chunksPerFile` ~900-character chunks for user 3 straight into the store. */
export function seedChunks(dataDir, { files, chunksPerFile, seed = 42 }) {
  const random = rng(seed);
  const db = new Database(path.join(dataDir, "sage.db"));
  const now = new Date().toISOString();
  // The user's full-text table first, so its triggers index each row as ingestion would.
  createLexicalIndex(db).ensure(3);
  const insertItem = db.prepare(
    "INSERT INTO knowledge_items (user_id, conversation_id, parent_id, type, name, path, size, status, created_at, updated_at) VALUES (3, NULL, NULL, 'file', ?, ?, ?, 'ready', ?, ?)",
  );
  const insertChunk = db.prepare(
    "INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, 3, NULL, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (let f = 0; f < files; f++) {
      const name = `report-${f}.txt`;
      const itemId = insertItem.run(name, name, chunksPerFile * 900, now, now).lastInsertRowid;
      for (let c = 0; c < chunksPerFile; c++) {
        let text = "";
        while (text.length < 850) text += sentence(random) + " ";
        insertChunk.run(itemId, c, `${name}/section ${c + 1}`, text.trim(), now);
      }
    }
  })();
  db.close();
}
