import type BetterSqlite3 from "better-sqlite3";
import { ftsOrQuery, indexTerm } from "./query-terms.ts";

/** Which chunks a search may see. conversationId: undefined = all of the user's, null = system only. */
export interface SearchScope {
  userId: number;
  conversationId?: number | null;
}

export interface LexicalOptions {
  /** Column weights for bm25(): the item's name (title) and the chunk text. */
  titleWeight: number;
  contentWeight: number;
}

/** Tuned on SciFact train (docs/retrieval.md): a name match counts twice a text match. */
export const DEFAULT_LEXICAL_OPTIONS: LexicalOptions = { titleWeight: 2, contentWeight: 1 };

/** Terms in more than this share of chunks are dropped when rarer ones remain: same quality, far fewer postings. */
const MAX_DOCUMENT_SHARE = 0.5;

export interface LexicalHit {
  chunkId: number;
  itemId: number;
  /** Positive BM25 (higher is better). */
  raw: number;
  /** 0..1: tanh(1.2 x idf-weighted coverage); a chunk holding every query term once scores 0.83. */
  score: number;
}

/**
 * A term found once in an average-length text adds idf x content weight to bm25(); the sum over the query's
 * terms is the yardstick, so raw / yardstick is the share of the query's idf mass a chunk covers (title hits and
 * repeats push it past 1). tanh squashes it into 0..1: covering about a third of it reads as 0.4.
 */
const COVERAGE_GAIN = 1.2;

export function scopeSql(scope: SearchScope, alias: string): { sql: string; params: number[] } {
  if (scope.conversationId === undefined) return { sql: `${alias}.user_id = ?`, params: [scope.userId] };
  if (scope.conversationId === null) {
    return { sql: `${alias}.user_id = ? AND ${alias}.conversation_id IS NULL`, params: [scope.userId] };
  }
  return {
    sql: `${alias}.user_id = ? AND (${alias}.conversation_id = ? OR ${alias}.conversation_id IS NULL)`,
    params: [scope.userId, scope.conversationId],
  };
}

export function createLexicalSearch(sqlite: BetterSqlite3.Database) {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const totalRows = sqlite.prepare("SELECT count(*) AS n FROM chunks");

  const documentCount = sqlite.prepare("SELECT doc FROM chunks_fts_vocab WHERE term = ?");

  /** Keeps the terms worth matching and their idf sum (the yardstick above). */
  function weighTerms(terms: string[]): { kept: string[]; ceiling: number } {
    const total = (totalRows.get() as { n: number }).n;
    const weighed = terms.map((term) => {
      const documents = (documentCount.get(indexTerm(term)) as { doc: number } | undefined)?.doc ?? 0;
      return { term, documents, idf: Math.max(1e-6, Math.log((total - documents + 0.5) / (documents + 0.5))) };
    });
    const present = weighed.filter((entry) => entry.documents > 0);
    const rare = present.filter((entry) => entry.documents <= total * MAX_DOCUMENT_SHARE);
    const kept = rare.length > 0 ? rare : present;
    return { kept: kept.map((entry) => entry.term), ceiling: kept.reduce((sum, entry) => sum + entry.idf, 0) };
  }

  return function lexicalSearch(
    terms: string[],
    scope: SearchScope,
    limit: number,
    options: LexicalOptions = DEFAULT_LEXICAL_OPTIONS,
  ): LexicalHit[] {
    const { kept, ceiling: termCeiling } = weighTerms(terms);
    if (kept.length === 0) return [];
    const where = scopeSql(scope, "c");
    const rows = prepare(
      `SELECT c.id AS chunkId, c.item_id AS itemId, -bm25(chunks_fts, ?, ?) AS raw
       FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ? AND ${where.sql}
       ORDER BY raw DESC LIMIT ?`,
    ).all(options.titleWeight, options.contentWeight, ftsOrQuery(kept), ...where.params, limit) as Omit<
      LexicalHit,
      "score"
    >[];
    if (rows.length === 0) return [];
    const yardstick = termCeiling * options.contentWeight;
    return rows.map((row) => ({ ...row, score: yardstick > 0 ? Math.tanh((COVERAGE_GAIN * row.raw) / yardstick) : 0 }));
  };
}

export type LexicalSearch = ReturnType<typeof createLexicalSearch>;
