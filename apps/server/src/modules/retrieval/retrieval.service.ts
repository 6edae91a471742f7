import type BetterSqlite3 from "better-sqlite3";
import type { SearchResult } from "@sage/contracts/retrieval";
import { notFound } from "../../http/app-error.ts";
import { createLexicalSearch, DEFAULT_LEXICAL_OPTIONS, type LexicalOptions, type SearchScope } from "./lexical-search.ts";
import { queryTerms } from "./query-terms.ts";
import { createRetrievalRepo, type ChunkDetails } from "./retrieval.repo.ts";

const MIN_SHOWN_SCORE = 0.0001;

export interface ScoredChunk extends ChunkDetails {
  score: number;
}

export interface RetrievalServiceDeps {
  sqlite: BetterSqlite3.Database;
  lexical?: LexicalOptions;
}

/** Search over the user's knowledge: BM25 over FTS5, fused with vectors when an embedder is present. */
export function createRetrievalService(deps: RetrievalServiceDeps) {
  const repo = createRetrievalRepo(deps.sqlite);
  const lexicalSearch = createLexicalSearch(deps.sqlite);
  const lexicalOptions = deps.lexical ?? DEFAULT_LEXICAL_OPTIONS;

  /** The scope a request may see; another user's conversation is a 404 that gives nothing away. */
  function resolveScope(userId: number, conversationId: number | null | undefined): SearchScope {
    if (conversationId === undefined || conversationId === null) return { userId };
    if (conversationId === 0) return { userId, conversationId: null };
    if (!repo.ownsConversation(userId, conversationId)) throw notFound("Conversation not found");
    return { userId, conversationId };
  }

  async function searchChunks(query: string, scope: SearchScope, limit: number): Promise<ScoredChunk[]> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const hits = lexicalSearch(terms, scope, limit, lexicalOptions);
    const scores = new Map(hits.map((hit) => [hit.chunkId, hit.score]));
    return repo.chunkDetails(hits.map((hit) => hit.chunkId)).map((row) => ({ ...row, score: scores.get(row.chunkId) ?? 0 }));
  }

  return {
    resolveScope,
    searchChunks,

    /** POST /api/search: a blank query does no work and finds nothing. */
    async search(input: { userId: number; query: string; limit: number; conversationId?: number | null }): Promise<SearchResult[]> {
      if (!input.query.trim()) return [];
      const scope = resolveScope(input.userId, input.conversationId);
      const chunks = await searchChunks(input.query, scope, input.limit);
      // A chunk that only shares words found everywhere scores 0.0000 at the 4 decimals shown: not a result.
      return chunks.filter((chunk) => chunk.score >= MIN_SHOWN_SCORE).map((chunk) => ({
        content: chunk.content,
        score: Number(chunk.score.toFixed(6)),
        metadata: { filename: chunk.filename, source: chunk.source || chunk.filename, file_id: chunk.itemId, chunk_id: chunk.chunkId },
      }));
    },
  };
}

export type RetrievalService = ReturnType<typeof createRetrievalService>;
