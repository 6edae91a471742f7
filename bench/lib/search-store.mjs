// A SAGE data folder holding `files` x `chunksPerFile` synthetic chunks for the demo user (id 3), with vectors
// from two embedders (384 and 768 dimensions) stored the way the retrieval module stores them (float32 blobs
// in chunk_vectors). Generation takes a while at 100k chunks, so the folder is cached under the OS temp dir,
// keyed by its parameters and a version to bump when the generator changes.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { embedText, fileName, fileTopic, passage } from "./corpus.mjs";
import { rng } from "./seed-chunks.mjs";
import { startSage } from "./server.mjs";
import { createLexicalIndex } from "../../apps/server/src/modules/retrieval/index/lexical-index.ts";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
// 2: the user's own full-text table (migration 0750) exists before seeding, so its triggers index each row.
// 3: the table holds searchText's form (decision 028); its triggers call a function only this build's code registers,
// so a store of this build is kept apart from the stores older builds (other worktrees) still write to.
const VERSION = 3;

export const DEMO_USER_ID = 3;
/** Embedder ids as SAGE records them: Gemini at 768 dimensions, an OpenAI-compatible model named bench-384. */
export const EMBEDDERS = {
  768: { id: "gemini:gemini-embedding-001:768", model: "bench-768" },
  384: { id: "openai-compatible:bench-384", model: "bench-384" },
};

export const cacheDir = (name) => path.join(tmpdir(), "sage-bench-cache", name);

export async function searchStore({ files, chunksPerFile, dimensions = [384, 768] }) {
  const dataDir = cacheDir(`search-v${VERSION}-f${files}-c${chunksPerFile}-d${dimensions.join("_")}`);
  if (existsSync(path.join(dataDir, "ready"))) return dataDir;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const startedAt = performance.now();
  // A first start creates the schema and the demo user; the data goes in straight after.
  const sage = await startSage({ dataDir, env: { SAGE_EMBEDDER: "none" } });
  await sage.stop({ keepData: true });
  seed(dataDir, { files, chunksPerFile, dimensions });
  writeFileSync(path.join(dataDir, "ready"), new Date().toISOString());
  console.error(`# generated ${files * chunksPerFile} chunks in ${((performance.now() - startedAt) / 1000).toFixed(1)} s -> ${dataDir}`);
  return dataDir;
}

function seed(dataDir, { files, chunksPerFile, dimensions }) {
  const db = new Database(path.join(dataDir, "sage.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const now = new Date().toISOString();
  const random = rng(42);
  createLexicalIndex(db).ensure(DEMO_USER_ID);
  const insertItem = db.prepare(
    "INSERT INTO knowledge_items (user_id, conversation_id, parent_id, type, name, path, mime_type, size, status, created_at, updated_at) VALUES (?, NULL, NULL, 'file', ?, ?, 'text/plain', ?, 'ready', ?, ?)",
  );
  const insertChunk = db.prepare(
    "INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, ?, NULL, ?, ?, ?, ?)",
  );
  const insertVector = db.prepare(
    "INSERT INTO chunk_vectors (chunk_id, embedder_id, dimensions, user_id, conversation_id, vector, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)",
  );
  db.transaction(() => {
    for (let f = 0; f < files; f++) {
      const name = fileName(f);
      const itemId = insertItem.run(DEMO_USER_ID, name, name, chunksPerFile * 950, now, now).lastInsertRowid;
      for (let c = 0; c < chunksPerFile; c++) {
        const content = passage(random, fileTopic(f));
        const chunkId = insertChunk.run(itemId, DEMO_USER_ID, c, `${name}/page ${c + 1}`, content, now).lastInsertRowid;
        for (const size of dimensions) {
          // The vectorizer embeds "name\ncontent"; so does the bench's model.
          const vector = embedText(`${name}\n${content}`, size);
          insertVector.run(chunkId, EMBEDDERS[size].id, size, DEMO_USER_ID, Buffer.from(vector.buffer), now);
        }
      }
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}
