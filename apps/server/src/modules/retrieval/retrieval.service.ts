import type { Recommendation, SearchResult } from "@sage/contracts/retrieval";
import { notFound } from "../../http/app-error.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { contentPreview } from "./content-preview.ts";
import { calibrateSimilarity, fuseScores } from "./fuse-scores.ts";
import type { ChunkDetails, ChunkStore } from "./index/chunk-store.ts";
import { DEFAULT_LEXICAL_OPTIONS, type LexicalOptions } from "./index/lexical-scoring.ts";
import type { LexicalSearch, SearchScope } from "./index/lexical-search.ts";
import { queryTerms } from "./index/query-terms.ts";
import type { Vectors } from "./index/vectors.ts";

const MIN_SHOWN_SCORE = 0.0001;

/** A generated file's chunks count this much of their score: below the sources it was made from, still found. */
const GENERATED_FILE_WEIGHT = 0.5;

/**
 * Where a passage is, as a citation names it: the page or heading (else the file); a file SAGE generated also names
 * what it was made from ("slide 2, made by SAGE from q3-report.pdf, hr.docx"), so its origin is one look away.
 */
function sourceOf(chunk: Pick<ChunkDetails, "source" | "filename" | "madeFrom">): string {
  const where = chunk.source || chunk.filename;
  if (!chunk.madeFrom) return where;
  const sources = (JSON.parse(chunk.madeFrom) as unknown[]).filter((name): name is string => typeof name === "string");
  return `${where}, made by SAGE${sources.length > 0 ? ` from ${sources.join(", ")}` : ""}`;
}

export interface ScoredChunk extends ChunkDetails {
  score: number;
}

export interface RetrievalServiceDeps {
  chunks: Pick<ChunkStore, "details">;
  /** SQLite's FTS5 search answers at once; PostgreSQL's (pg-lexical-index.ts) answers a promise. */
  lexicalSearch: LexicalSearch | ((...args: Parameters<LexicalSearch>) => Promise<ReturnType<LexicalSearch>>);
  conversations: Pick<ConversationsPort, "ownsConversation">;
  embedder?: Embedder | null;
  vectors?: Pick<Vectors, "hasVectors" | "search">;
  lexical?: LexicalOptions;
  /** True while the user's chunks are being vectorised in the background: search stays lexical until done. */
  lexicalOnly?: (userId: number) => boolean;
  /** Reports a failed query embedding; search then answers from BM25 alone. */
  onEmbedError?: (error: unknown) => void;
}

const QUERY_CACHE_SIZE = 200;

/** Search over the user's knowledge: BM25 over FTS5, fused with vectors when an embedder is present. */
export function createRetrievalService(deps: RetrievalServiceDeps) {
  const { lexicalSearch } = deps;
  const lexicalOptions = deps.lexical ?? DEFAULT_LEXICAL_OPTIONS;

  /** The scope a request may see; another user's conversation is a 404 that gives nothing away. */
  async function resolveScope(userId: number, conversationId: number | null | undefined): Promise<SearchScope> {
    if (conversationId === undefined || conversationId === null) return { userId };
    if (conversationId === 0) return { userId, conversationId: null };
    if (!(await deps.conversations.ownsConversation(userId, conversationId))) throw notFound("Conversation not found");
    return { userId, conversationId };
  }

  const queryVectors = new Map<string, number[]>();
  async function embedQuery(embedder: Embedder, query: string): Promise<number[]> {
    const cached = queryVectors.get(query);
    if (cached) return cached;
    const [vector] = await embedder.embed([query], { kind: "query" });
    queryVectors.set(query, vector!);
    if (queryVectors.size > QUERY_CACHE_SIZE) queryVectors.delete(queryVectors.keys().next().value!);
    return vector!;
  }

  /** Chunks best matching the query in the scope: BM25 fused with vector similarity when vectors exist. */
  async function searchChunks(query: string, scope: SearchScope, limit: number): Promise<ScoredChunk[]> {
    if (!query.trim()) return [];
    const candidates = Math.max(limit * 4, 40);
    const { embedder, vectors } = deps;
    // The query's embedding is asked for first: BM25 runs while it travels (a remote embedder takes longer).
    const embedding =
      embedder && vectors && !deps.lexicalOnly?.(scope.userId) && (await vectors.hasVectors(embedder.id, scope.userId))
        ? embedQuery(embedder, query.trim())
        : undefined;
    embedding?.catch(() => {}); // awaited below; this only keeps a failure during BM25 from counting as unhandled
    const terms = queryTerms(query);
    const lexicalHits = terms.length > 0 ? await lexicalSearch(terms, scope, candidates, lexicalOptions) : [];
    const scores = new Map<number, { lexical: number; vector: number }>();
    for (const hit of lexicalHits) scores.set(hit.chunkId, { lexical: hit.score, vector: 0 });

    if (embedding && embedder && vectors) {
      try {
        const queryVector = await embedding;
        for (const hit of await vectors.search(embedder.id, queryVector, scope, candidates)) {
          const entry = scores.get(hit.chunkId) ?? { lexical: 0, vector: 0 };
          entry.vector = calibrateSimilarity(embedder.id, hit.similarity);
          scores.set(hit.chunkId, entry);
        }
      } catch (error) {
        deps.onEmbedError?.(error);
      }
    }
    const ranked = [...scores.entries()]
      .map(([chunkId, entry]) => ({ chunkId, score: fuseScores(entry.lexical, entry.vector) }))
      .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
      .slice(0, limit * 2);
    const fused = new Map(ranked.map((hit) => [hit.chunkId, hit.score]));
    // A file SAGE generated ranks below the sources it was made from (issue 52 item 11): its words are theirs.
    return (await deps.chunks.details(ranked.map((hit) => hit.chunkId)))
      .map((row) => ({ ...row, score: (fused.get(row.chunkId) ?? 0) * (row.madeFrom ? GENERATED_FILE_WEIGHT : 1) }))
      .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
      .slice(0, limit);
  }

  return {
    resolveScope,
    searchChunks,
    /** The query's embedding, cached as search caches it (a turn's knowledge search already asked for it). */
    queryVector: (embedder: Embedder, query: string) => embedQuery(embedder, query.trim()),

    /**
     * POST /api/recommend-files: chunk scores folded into one per file. The best chunk counts fully, the next two
     * as weaker votes (1 - (1 - s1)(1 - s2/3)(1 - s3/9)), so a file with several good passages edges ahead
     * while a single weak hit stays below the 0.4 'plausibly relevant' line.
     */
    async recommend(input: { userId: number; queryText: string; limit: number; conversationId?: number | null }): Promise<Recommendation[]> {
      if (!input.queryText.trim()) return [];
      const scope = await resolveScope(input.userId, input.conversationId);
      // 20 chunks (80 index candidates) fill 5 files in practice; 50 made each index return 200 candidates,
      // which alone cost 70-100 ms p95 at 10k files.
      const chunks = await searchChunks(input.queryText, scope, Math.max(input.limit * 4, 20));
      const files = new Map<number, { chunks: ScoredChunk[] }>();
      for (const chunk of chunks) {
        const file = files.get(chunk.itemId) ?? { chunks: [] };
        file.chunks.push(chunk);
        files.set(chunk.itemId, file);
      }
      return [...files.entries()]
        .map(([fileId, file]) => {
          const ordered = file.chunks.sort((a, b) => b.score - a.score);
          const miss = ordered.slice(0, 3).reduce((product, chunk, index) => product * (1 - chunk.score / 3 ** index), 1);
          const best = ordered[0]!;
          return {
            file_id: fileId,
            filename: best.filename,
            score: Number((1 - miss).toFixed(6)),
            content_preview: contentPreview(best.filename, best.content),
          };
        })
        .filter((file) => file.score >= MIN_SHOWN_SCORE)
        .sort((a, b) => b.score - a.score || a.file_id - b.file_id)
        .slice(0, input.limit);
    },

    /** POST /api/search: a blank query does no work and finds nothing. */
    async search(input: { userId: number; query: string; limit: number; conversationId?: number | null }): Promise<SearchResult[]> {
      if (!input.query.trim()) return [];
      const scope = await resolveScope(input.userId, input.conversationId);
      const chunks = await searchChunks(input.query, scope, input.limit);
      // A chunk that only shares words found everywhere scores 0.0000 at the 4 decimals shown: not a result.
      return chunks
        .filter((chunk) => chunk.score >= MIN_SHOWN_SCORE)
        .map((chunk) => ({
          content: chunk.content,
          score: Number(chunk.score.toFixed(6)),
          metadata: { filename: chunk.filename, source: sourceOf(chunk), file_id: chunk.itemId, chunk_id: chunk.chunkId },
        }));
    },
  };
}

export type RetrievalService = ReturnType<typeof createRetrievalService>;
