import path from "node:path";
import type { Store } from "../../../store/open-store.ts";
import { createChunkStore } from "./chunk-store.ts";
import { createFtsTotals } from "./fts-totals.ts";
import { createLexicalIndex } from "./lexical-index.ts";
import { createLexicalMerges } from "./lexical-merges.ts";
import { createLexicalSearch } from "./lexical-search.ts";
import { createMergeConnection } from "./merge-connection.ts";
import type { SearchIndex } from "./search-index.ts";
import { createVectorStore } from "./vector-store.ts";
import { sqliteUnembeddedChunks } from "./vectors.ts";

/**
 * The search index on SQLite: per-user FTS5 tables kept by triggers and merged in idle time through a connection of
 * their own, and per-user HNSW partitions in memory, saved beside the database at shutdown (decisions 050, 052).
 */
export function openSqliteSearchIndex(store: Pick<Store, "sqlite" | "dataDir">, log: (message: string, error?: unknown) => void): SearchIndex {
  const { sqlite } = store;
  const lexicalIndex = createLexicalIndex(sqlite);
  // Chunks waiting for their user's table (after migration 0750, the whole shared index) are indexed before serving.
  lexicalIndex.indexAllPending();
  const mergeConnection = createMergeConnection(path.join(store.dataDir, "sage.db"));
  const lexicalMerges = createLexicalMerges({ mergeStep: mergeConnection.mergeStep, mergeWhileWriting: lexicalIndex.mergeWhileWriting });
  const chunks = createChunkStore(sqlite, lexicalIndex, lexicalMerges);
  const vectors = createVectorStore(sqlite, { indexDir: path.join(store.dataDir, "vector-index"), log });
  return {
    engine: "sqlite",
    chunks,
    lexicalSearch: createLexicalSearch(sqlite, lexicalIndex),
    vectors,
    unembedded: sqliteUnembeddedChunks(sqlite),
    vectorSearch: "SAGE's own vector index (HNSW, in memory)",
    itemRenamed: async () => undefined,
    deleteUserChunks: async (userId, limit) => sqlite.transaction(() => chunks.deleteUserBatch(userId, limit))(),
    insertRestored: async (userId, rows, restoredVectors) =>
      sqlite.transaction(() => {
        const ids = chunks.insertRestored(userId, rows);
        if (restoredVectors) {
          const placed = restoredVectors.rows.map((row) => ({ chunkId: ids[row.chunk]!, conversationId: rows[row.chunk]!.conversationId, vector: row.vector }));
          vectors.insertRestored(userId, restoredVectors.embedder, placed);
        }
        return ids;
      })(),
    async repairAfterRestore(userId) {
      // Deleted rows stay in FTS5's totals (fts-totals.ts): a restore deletes a whole knowledge base at once.
      const table = lexicalIndex.prepare(userId);
      if (table) createFtsTotals(sqlite, table).repair();
    },
    async start() {
      // Merges a crash or an older version left due run in idle time, as after any write.
      for (const userId of lexicalIndex.users()) lexicalMerges.changed(userId);
    },
    async close() {
      await lexicalMerges.stop();
      mergeConnection.close();
      await vectors.stopMerges();
      try {
        vectors.persist();
      } catch (error) {
        log("could not save the vector index; it will be rebuilt from the store", error);
      }
    },
  };
}
