import path from "node:path";
import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { Store } from "../../store/open-store.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { createKnowledgeAnswerer } from "./answer-from-knowledge.ts";
import { createChunkStore, type ChunkBackupRow, type ChunkInput, type IndexedItem } from "./index/chunk-store.ts";
import { createLexicalSearch } from "./index/lexical-search.ts";
import { createVectorStore } from "./index/vector-store.ts";
import { createVectorizer } from "./index/vectorizer.ts";
import { registerRetrievalRoutes } from "./retrieval.routes.ts";
import { createRetrievalService } from "./retrieval.service.ts";
import { registerVectorLifecycleRoutes } from "./vector-lifecycle.routes.ts";
import { createVectorLifecycleService } from "./vector-lifecycle.service.ts";

export type { ChunkBackupRow } from "./index/chunk-store.ts";

/** What ingestion uses to make an item searchable (or not any more). */
export interface KnowledgeIndexPort {
  indexItem(item: IndexedItem, chunks: ChunkInput[]): Promise<{ chunkCount: number; vectorError?: unknown }>;
  removeItem(itemId: number): void;
}

type NewIds = Map<number, { id: number; conversationId: number | null }>;

/** What a backup needs of the search index: chunks and vectors, read out and written back. */
export interface RetrievalBackupPort {
  /** The embedder whose vectors an export carries, with their dimensions; null when there are none. */
  exportedEmbedder(userId: number): { id: string; dimensions: number } | null;
  currentEmbedderId: string | null;
  countChunks(userId: number): number;
  countVectors(userId: number, embedderId: string): number;
  chunkPage(userId: number, afterId: number, size: number): ChunkBackupRow[];
  vectorPage(userId: number, embedderId: string, afterChunkId: number, size: number): { chunk_id: number; vector: string }[];
  /** Synchronous: runs inside the transaction that re-created the items; answers old chunk id -> new chunk. */
  importChunksSync(userId: number, chunks: ChunkBackupRow[], items: NewIds): NewIds;
  importVectorsSync(userId: number, embedder: { id: string; dimensions: number }, vectors: { chunkId: number; vector: Buffer }[], chunks: NewIds): void;
  rebuildLexicalIndexSync(): void;
  /** After a restore: the user's vector indexes are read again, and re-embedded when the backup's came from elsewhere. */
  afterRestore(userId: number, options: { revectorize: boolean }): Promise<void>;
}

export interface RetrievalModule extends AppModule {
  index: KnowledgeIndexPort;
  backup: RetrievalBackupPort;
}

/** Search, recommendations, the vector lifecycle and the search index that ingestion fills. */
export function createRetrievalModule(deps: {
  store: Pick<Store, "sqlite" | "dataDir">;
  embedder: Embedder | null;
  llm: LlmProvider | null;
  jobs: JobQueue;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  log: { warn(message: string, error?: unknown): void };
}): RetrievalModule {
  const { sqlite } = deps.store;
  const { embedder } = deps;
  const chunks = createChunkStore(sqlite);
  const vectors = createVectorStore(sqlite, { indexDir: path.join(deps.store.dataDir, "vector-index") });
  const vectorizer = createVectorizer({ sqlite, embedder, vectors });
  const catchingUp = new Set<number>();
  const retrieval = createRetrievalService({
    chunks,
    lexicalSearch: createLexicalSearch(sqlite),
    conversations: deps.conversations,
    embedder,
    vectors,
    lexicalOnly: (userId) => catchingUp.has(userId),
    onEmbedError: (error) => deps.log.warn("query embedding failed; answering from BM25 alone", error),
  });
  const lifecycle = createVectorLifecycleService({ embedder, chunks, vectors, vectorizer, jobs: deps.jobs, catchingUp });
  const answerFromKnowledge = createKnowledgeAnswerer({ retrieval, llm: deps.llm });

  return {
    index: {
      async indexItem(item, itemChunks) {
        const chunkCount = await chunks.replaceItemChunks(item, itemChunks);
        try {
          await vectorizer.indexItem(item.id);
          return { chunkCount };
        } catch (error) {
          return { chunkCount, vectorError: error };
        }
      },
      removeItem: (itemId) => chunks.removeItemChunks(itemId),
    },

    backup: {
      exportedEmbedder(userId) {
        if (!embedder || vectors.counts(userId, embedder.id).current === 0) return null;
        return { id: embedder.id, dimensions: vectors.dimensions(userId, embedder.id) ?? embedder.dimensions };
      },
      currentEmbedderId: embedder?.id ?? null,
      countChunks: (userId) => chunks.countForUser(userId),
      countVectors: (userId, embedderId) => vectors.counts(userId, embedderId).current,
      chunkPage: (userId, afterId, size) => chunks.exportPage(userId, afterId, size),
      vectorPage: (userId, embedderId, afterChunkId, size) => vectors.exportPage(userId, embedderId, afterChunkId, size),
      importChunksSync: (userId, rows, items) => chunks.importRows(userId, rows, items),
      importVectorsSync: (userId, vectorEmbedder, rows, chunkIds) => vectors.importRows(userId, vectorEmbedder, rows, chunkIds),
      rebuildLexicalIndexSync: () => chunks.rebuildLexicalIndex(),
      async afterRestore(userId, options) {
        vectors.forgetUser(userId);
        if (options.revectorize && embedder) await lifecycle.revectorizeInBackground(userId);
      },
    },

    register(app) {
      // Load (or start building) every user's index at start-up, so the first searches need not wait for it.
      app.addHook("onReady", async () => {
        if (!embedder) return;
        await lifecycle.startCatchUp();
        for (const userId of vectors.usersWith(embedder.id)) {
          vectors.warm(embedder.id, userId).catch((error: unknown) => app.log.warn({ err: error }, "could not load the vector index"));
        }
      });
      app.addHook("onClose", async () => {
        try {
          vectors.persist();
        } catch (error) {
          app.log.warn({ err: error }, "could not save the vector index; it will be rebuilt from the store");
        }
      });
      registerRetrievalRoutes(app, { retrieval, answerFromKnowledge });
      registerVectorLifecycleRoutes(app, { lifecycle });
    },
  };
}
