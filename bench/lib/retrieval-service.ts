import type BetterSqlite3 from "better-sqlite3";
import { createChunkStore } from "../../apps/server/src/modules/retrieval/index/chunk-store.ts";
import { createLexicalSearch } from "../../apps/server/src/modules/retrieval/index/lexical-search.ts";
import type { VectorStore } from "../../apps/server/src/modules/retrieval/index/vector-store.ts";
import { createRetrievalService, type RetrievalServiceDeps } from "../../apps/server/src/modules/retrieval/retrieval.service.ts";
import type { Embedder } from "../../apps/server/src/providers/embedder/embedder.ts";

/** The retrieval service over a store, as the app builds it, for benchmarks and evaluations (every scope is allowed). */
export function benchRetrieval(
  sqlite: BetterSqlite3.Database,
  options: { embedder?: Embedder | null; vectors?: VectorStore; lexicalSearch?: RetrievalServiceDeps["lexicalSearch"] } = {},
) {
  return createRetrievalService({
    chunks: createChunkStore(sqlite),
    lexicalSearch: options.lexicalSearch ?? createLexicalSearch(sqlite),
    conversations: { ownsConversation: async () => true },
    embedder: options.embedder ?? null,
    vectors: options.vectors,
  });
}
