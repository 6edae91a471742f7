import { rmSync } from "node:fs";
import path from "node:path";
import { makeDataDir, ROOT } from "./server.mjs";

/**
 * Decision 007's index floor, shared by the text and mail benches: a fresh store with SAGE's schema and the user's
 * FTS5 table, its insert trigger dropped (fired per row it opens a statement savepoint, and FTS5 flushes its
 * pending terms at every savepoint). `fill` gets prepared statements for items, chunks and one INSERT ... SELECT
 * that indexes every chunk, and runs once per fresh store; answers the best of `runs` of its times in ms, and what
 * the last run answered.
 */
export async function timeIndexFloor(label, runs, fill) {
  const { openStore } = await import(path.join(ROOT, "apps/server/src/store/open-store.ts"));
  const { createLexicalIndex } = await import(path.join(ROOT, "apps/server/src/modules/retrieval/index/lexical-index.ts"));
  let best = Infinity;
  let result;
  for (let run = 0; run < runs; run++) {
    const dataDir = makeDataDir(label);
    const store = openStore({ dataDir });
    try {
      store.sqlite.pragma("foreign_keys = OFF");
      const fts = createLexicalIndex(store.sqlite).ensure(1);
      store.sqlite.exec(`DROP TRIGGER ${fts}_insert`);
      const statements = {
        sqlite: store.sqlite,
        item: store.sqlite.prepare(
          "INSERT INTO knowledge_items (id, user_id, type, name, path, status, created_at, updated_at) VALUES (?, 1, 'file', ?, ?, 'ready', '', '')",
        ),
        chunk: store.sqlite.prepare(
          "INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, 1, NULL, ?, ?, ?, '')",
        ),
        indexAll: store.sqlite.prepare(
          `INSERT INTO ${fts}(rowid, title, content) SELECT c.id, ki.name, c.content FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id`,
        ),
      };
      const startedAt = performance.now();
      result = await fill(statements);
      best = Math.min(best, performance.now() - startedAt);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { ms: best, result };
}
