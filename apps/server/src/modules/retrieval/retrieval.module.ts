import type { SearchResult } from "@sage/contracts/retrieval";
import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { createKnowledgeAnswerer } from "./answer-from-knowledge.ts";
import { calibrateSimilarity, cosine, fuseScores } from "./fuse-scores.ts";
import type { ChunkBackupRow, ChunkInput, IndexedItem, RestoredChunk } from "./index/chunk-store.ts";
import type { SearchIndex } from "./index/search-index.ts";
import { createVectorizer } from "./index/vectorizer.ts";
import { createItemReader } from "./item-reader.ts";
import { registerRetrievalRoutes } from "./retrieval.routes.ts";
import { createRetrievalService } from "./retrieval.service.ts";
import { registerVectorLifecycleRoutes } from "./vector-lifecycle.routes.ts";
import { createVectorLifecycleService } from "./vector-lifecycle.service.ts";

export type { ChunkBackupRow, RestoredChunk } from "./index/chunk-store.ts";
export type { SearchIndex } from "./index/search-index.ts";
export { openSqliteSearchIndex } from "./index/sqlite-search-index.ts";
export { openPgSearchIndex } from "./index/pg-search-index.ts";
/** How knowledge search folds text (accents, NFKC, CJK pairs): other modules search their own text the same way. */
export { germanSpelling, searchText } from "./index/search-text.ts";

/** What ingestion uses to make an item searchable (or not any more). */
export interface KnowledgeIndexPort {
  indexItem(item: IndexedItem, chunks: ChunkInput[] | AsyncIterable<ChunkInput[]>): Promise<{ chunkCount: number; vectorError?: unknown }>;
  /** Many small items together (a batch of mails); null for an item deleted meanwhile. */
  indexItems(entries: Array<{ item: IndexedItem; chunks: ChunkInput[] }>): Promise<Array<{ chunkCount: number; vectorError?: unknown } | null>>;
  removeItem(itemId: number): Promise<void>;
  /** An item's name changed: its chunks are found by the new name (SQLite's index follows by itself). */
  itemRenamed(itemId: number): Promise<void>;
  /** Stores the chunks for word search now; `vectors` settles once they are embedded (a short note, issue 35). */
  indexNow(item: IndexedItem, chunks: ChunkInput[]): Promise<{ chunkCount: number; vectors: Promise<void> }>;
  /**
   * An item's text as it was read, by page, slide, sheet or heading (consecutive chunks of one source joined); with
   * `maxChars`, only the sections that hold that much of its start.
   */
  itemSections(userId: number, itemId: number, maxChars?: number): Promise<{ source: string; text: string }[]>;
}

/**
 * What a backup needs of the search index: chunks and vectors, read out and written back. The `...Sync` writes run
 * inside the backup's own short transactions, a batch at a time.
 */
export interface RetrievalBackupPort {
  /** The embedder whose vectors an export carries, with their dimensions; null when there are none. */
  exportedEmbedder(userId: number): Promise<{ id: string; dimensions: number } | null>;
  currentEmbedderId: string | null;
  chunkPage(userId: number, afterId: number, size: number): Promise<ChunkBackupRow[]>;
  vectorPage(userId: number, embedderId: string, afterChunkId: number, size: number): Promise<{ chunk_id: number; vector: string }[]>;
  /** Deletes up to `limit` of the user's chunks and their vectors, in a short transaction; 0 once none is left. */
  deleteChunks(userId: number, limit: number): Promise<number>;
  /**
   * Writes restored chunks and, when given, their vectors (`chunk` is a position in `chunks`) in one short
   * transaction; answers the new chunk ids, in order.
   */
  insertChunks(
    userId: number,
    chunks: RestoredChunk[],
    vectors: { embedder: { id: string; dimensions: number }; rows: Array<{ chunk: number; vector: Buffer }> } | null,
  ): Promise<number[]>;
  /** Before a restore rewrites the user's rows: searches stop using the user's vector indexes. */
  beforeRestore(userId: number): void;
  /** After a restore: BM25's totals are put right, and the vectors re-embedded when the backup's came from elsewhere. */
  afterRestore(userId: number, options: { revectorize: boolean }): Promise<void>;
  /** Runs before every reset of a user's vectors (the backup module snapshots the knowledge first). */
  onBeforeReset(listener: (userId: number) => Promise<void>): void;
}

/** What the assistant searches with: the same search as POST /api/search (a 404 for another user's conversation). */
export interface DocumentSearchPort {
  search(input: { userId: number; query: string; limit: number; conversationId?: number | null }): Promise<SearchResult[]>;
  /** The first `maxChars` of an item's indexed text, the chunks' overlaps removed; '' when none. Read no more than kept. */
  itemText(userId: number, itemId: number, maxChars: number): Promise<string>;
  /** The pieces holding the first `maxChars` of the text, with where each came from ('page 3'), to place a quote on its page. */
  itemPieces(userId: number, itemId: number, maxChars: number): Promise<{ source: string; content: string }[]>;
}

/**
 * The vector half of hybrid search for short texts another module keeps itself (memories): their embeddings, and
 * how close each is to a query on the 0..1 scale search fuses with BM25. Null when SAGE has no embedder.
 */
export interface SemanticPort {
  embedderId: string;
  embedDocuments(texts: readonly string[]): Promise<number[][]>;
  closeness(query: string, vectors: readonly Float32Array[]): Promise<number[]>;
  /** Lexical and vector evidence as independent votes, as search fuses them. */
  fuse(lexical: number, vector: number): number;
}

export interface RetrievalModule extends AppModule {
  index: KnowledgeIndexPort;
  backup: RetrievalBackupPort;
  search: DocumentSearchPort;
  semantic: SemanticPort | null;
}

/** Search, recommendations, the vector lifecycle and the search index that ingestion fills. */
export function createRetrievalModule(deps: {
  /** The search index on the store's engine (sqlite-search-index.ts, pg-search-index.ts). */
  searchIndex: SearchIndex;
  embedder: Embedder | null;
  llm: LlmProvider | null;
  jobs: JobQueue;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  log: { warn(message: string, error?: unknown): void };
}): RetrievalModule {
  const { embedder, searchIndex } = deps;
  const { chunks, vectors } = searchIndex;
  const vectorizer = createVectorizer({ unembedded: searchIndex.unembedded, embedder, vectors });
  /** Embeds an item whose chunks are stored; a failure is reported, not thrown (its words are still searchable). */
  const withVectors = async (itemId: number, chunkCount: number): Promise<{ chunkCount: number; vectorError?: unknown }> => {
    try {
      await vectorizer.indexItem(itemId);
      return { chunkCount };
    } catch (error) {
      return { chunkCount, vectorError: error };
    }
  };
  const catchingUp = new Set<number>();
  const retrieval = createRetrievalService({
    chunks,
    lexicalSearch: searchIndex.lexicalSearch,
    conversations: deps.conversations,
    embedder,
    vectors,
    lexicalOnly: (userId) => catchingUp.has(userId),
    onEmbedError: (error) => deps.log.warn("query embedding failed; answering from BM25 alone", error),
  });
  const resetListeners: Array<(userId: number) => Promise<void>> = [];
  const lifecycle = createVectorLifecycleService({
    embedder,
    chunks,
    vectors,
    vectorizer,
    jobs: deps.jobs,
    catchingUp,
    async beforeReset(userId) {
      for (const listener of resetListeners) await listener(userId);
    },
  });
  const answerFromKnowledge = createKnowledgeAnswerer({ retrieval, llm: deps.llm });
  const reader = createItemReader(chunks);

  return {
    search: {
      search: retrieval.search,
      itemText: reader.text,
      itemPieces: reader.pieces,
    },
    semantic: embedder && {
      embedderId: embedder.id,
      async embedDocuments(texts) {
        const vectorsOut: number[][] = [];
        for (let start = 0; start < texts.length; start += embedder.maxBatch) {
          vectorsOut.push(...(await embedder.embed(texts.slice(start, start + embedder.maxBatch), { kind: "document" })));
        }
        return vectorsOut;
      },
      async closeness(query, candidates) {
        const queryVector = await retrieval.queryVector(embedder, query);
        return candidates.map((vector) => calibrateSimilarity(embedder.id, cosine(queryVector, vector)));
      },
      fuse: fuseScores,
    },
    index: {
      indexItem: async (item, itemChunks) => withVectors(item.id, await chunks.replaceItemChunks(item, itemChunks)),
      async indexItems(entries) {
        const counts = await chunks.replaceItemsChunks(entries);
        const indexed: Array<{ chunkCount: number; vectorError?: unknown } | null> = [];
        for (const [index, chunkCount] of counts.entries()) indexed.push(chunkCount === null ? null : await withVectors(entries[index]!.item.id, chunkCount));
        return indexed;
      },
      removeItem: (itemId) => chunks.removeItemChunks(itemId),
      itemRenamed: (itemId) => searchIndex.itemRenamed(itemId),
      async indexNow(item, itemChunks) {
        const chunkCount = await chunks.replaceItemChunks(item, itemChunks);
        return { chunkCount, vectors: vectorizer.indexItem(item.id) };
      },
      itemSections: reader.sections,
    },

    backup: {
      async exportedEmbedder(userId) {
        if (!embedder || (await vectors.counts(userId, embedder.id)).current === 0) return null;
        return { id: embedder.id, dimensions: (await vectors.dimensions(userId, embedder.id)) ?? embedder.dimensions };
      },
      currentEmbedderId: embedder?.id ?? null,
      chunkPage: (userId, afterId, size) => chunks.exportPage(userId, afterId, size),
      vectorPage: async (userId, embedderId, afterChunkId, size) => vectors.exportPage(userId, embedderId, afterChunkId, size),
      deleteChunks: (userId, limit) => searchIndex.deleteUserChunks(userId, limit),
      insertChunks: (userId, rows, restoredVectors) => searchIndex.insertRestored(userId, rows, restoredVectors),
      beforeRestore: (userId) => vectors.forgetUser(userId),
      async afterRestore(userId, options) {
        vectors.forgetUser(userId);
        await searchIndex.repairAfterRestore(userId);
        if (options.revectorize && embedder) await lifecycle.revectorizeInBackground(userId);
      },
      onBeforeReset: (listener) => void resetListeners.push(listener),
    },

    register(app) {
      // Load (or start building) every user's index at start-up, so the first searches need not wait for it.
      app.addHook("onReady", async () => {
        await searchIndex.start();
        if (!embedder) return;
        await lifecycle.startCatchUp();
        for (const userId of await vectors.usersWith(embedder.id)) {
          vectors.warm(embedder.id, userId).catch((error: unknown) => app.log.warn({ err: error }, "could not load the vector index"));
        }
      });
      app.addHook("onClose", () => searchIndex.close());
      registerRetrievalRoutes(app, { retrieval, answerFromKnowledge });
      registerVectorLifecycleRoutes(app, { lifecycle });
    },
  };
}
