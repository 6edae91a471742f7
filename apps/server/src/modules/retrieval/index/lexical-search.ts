import type BetterSqlite3 from "better-sqlite3";
import { createFtsTotals } from "./fts-totals.ts";
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

/**
 * Most postings one query may score. FTS5 scores every matching row (no early termination), so a query of
 * words found in most of 100k chunks costs seconds. Terms are taken rarest first while they fit the budget;
 * only when the rarest term alone is over it does the search keep to the newest chunks (a rowid window sized
 * to the budget). docs/retrieval.md has the figures.
 */
export const POSTINGS_BUDGET = 4_000;
const TOTAL_CACHE_MS = 5_000;
/** The ranked window grows 8x at a time up to this multiple of the limit before the scope join takes over. */
const WIDEST_WINDOW = 64;
const DF_SAMPLE = 2_000;

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
  // Two subqueries: SQLite answers a lone min() or max() from the index end, but not both in one.
  const rowidRange = sqlite.prepare("SELECT (SELECT min(id) FROM chunks) AS low, (SELECT max(id) FROM chunks) AS high");
  let cachedTotal = { n: 0, at: -Infinity };
  // idf only needs an approximate row count; counting 100k rows on every query would cost milliseconds.
  const ftsTotals = createFtsTotals(sqlite);
  const total = () => {
    if (performance.now() - cachedTotal.at > TOTAL_CACHE_MS) {
      cachedTotal = { n: (totalRows.get() as { n: number }).n, at: performance.now() };
      // Deletes and renames leave bm25's row count behind (fts-totals.ts); put it right once it is off by 2%.
      if (ftsTotals.drift(cachedTotal.n) > Math.max(20, cachedTotal.n * 0.02)) ftsTotals.repair();
    }
    return cachedTotal.n;
  };

  // fts5vocab counts a term's documents by walking its whole doclist: fine up to a few thousand rows, but 8 ms
  // for a word in 85k chunks. Past DF_SAMPLE rows the count is estimated from the newest DF_SAMPLE chunks,
  // and counts are reused for a few seconds.
  const documentCount = sqlite.prepare("SELECT doc FROM chunks_fts_vocab WHERE term = ?");
  const sampledCount = sqlite.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid > ?");
  const documentCache = new Map<string, { documents: number; at: number }>();
  function documentsWith(term: string, rows: number): number {
    const cached = documentCache.get(term);
    if (cached && performance.now() - cached.at < TOTAL_CACHE_MS) return cached.documents;
    const documents = countDocuments(term, rows);
    if (documentCache.size > 5_000) documentCache.clear();
    documentCache.set(term, { documents, at: performance.now() });
    return documents;
  }
  function countDocuments(term: string, rows: number): number {
    if (rows <= DF_SAMPLE) return (documentCount.get(indexTerm(term)) as { doc: number } | undefined)?.doc ?? 0;
    const range = rowidRange.get() as { low: number | null; high: number | null };
    if (range.low === null || range.high === null) return 0;
    const span = range.high - range.low + 1;
    const window = Math.min(span, Math.ceil((DF_SAMPLE * span) / rows));
    const found = (sampledCount.get(ftsOrQuery([term]), range.high - window) as { n: number }).n;
    // A term seldom seen in the sample has a short doclist, so its exact count is cheap (and a rare term
    // absent from the newest chunks must not be mistaken for an absent one).
    if (found < 50) return (documentCount.get(indexTerm(term)) as { doc: number } | undefined)?.doc ?? 0;
    return Math.min(rows, Math.round((found * rows) / DF_SAMPLE));
  }

  /** Keeps the terms worth matching and their idf sum (the yardstick above). */
  function weighTerms(terms: string[]): { kept: string[]; ceiling: number; postings: number } {
    const rows = total();
    const weighed = terms.map((term) => {
      const documents = documentsWith(term, rows);
      return { term, documents, idf: Math.max(1e-6, Math.log((rows - documents + 0.5) / (documents + 0.5))) };
    });
    const present = weighed.filter((entry) => entry.documents > 0);
    const rare = present.filter((entry) => entry.documents <= rows * MAX_DOCUMENT_SHARE);
    // Rarest first: they carry the most weight; common ones join while the postings stay within budget.
    const candidates = (rare.length > 0 ? rare : present).sort((a, b) => a.documents - b.documents);
    const kept: typeof candidates = [];
    let postings = 0;
    for (const entry of candidates) {
      if (kept.length > 0 && postings + entry.documents > POSTINGS_BUDGET) break;
      kept.push(entry);
      postings += entry.documents;
    }
    return {
      kept: kept.map((entry) => entry.term),
      ceiling: kept.reduce((sum, entry) => sum + entry.idf, 0),
      postings,
    };
  }

  /**
   * FTS5 ranks first (bm25 over the matches alone, top rows only) and the scope is checked on those rows:
   * joining `chunks` for every matching row made the query 4x slower at 100k chunks. When the scope removes
   * too many of them (a conversation's view of a large base), the window widens, and at last the join
   * decides on every row, so the answer is always the scope's true top `limit`.
   */
  function rankThenScope(query: string, afterRowid: number, scope: SearchScope, limit: number, options: LexicalOptions) {
    const where = scopeSql(scope, "c");
    const weights = [options.titleWeight, options.contentWeight];
    for (let window = limit; window <= limit * WIDEST_WINDOW; window *= 8) {
      const ranked = prepare(
        `SELECT f.id AS chunkId, c.item_id AS itemId, f.raw AS raw
         FROM (SELECT rowid AS id, -bm25(chunks_fts, ?, ?) AS raw FROM chunks_fts
               WHERE chunks_fts MATCH ? AND rowid > ? ORDER BY raw DESC LIMIT ?) f
         LEFT JOIN chunks c ON c.id = f.id AND ${where.sql}
         ORDER BY f.raw DESC, f.id`,
      ).all(...weights, query, afterRowid, window, ...where.params) as (Omit<LexicalHit, "score" | "itemId"> & { itemId: number | null })[];
      const inScope = ranked.filter((row): row is Omit<LexicalHit, "score"> => row.itemId !== null);
      // Fewer rows than the window means every match was seen, so nothing in scope can be missing.
      if (inScope.length >= limit || ranked.length < window) return inScope.slice(0, limit);
    }
    return prepare(
      `SELECT c.id AS chunkId, c.item_id AS itemId, -bm25(chunks_fts, ?, ?) AS raw
       FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ? AND chunks_fts.rowid > ? AND ${where.sql}
       ORDER BY raw DESC, c.id LIMIT ?`,
    ).all(...weights, query, afterRowid, ...where.params, limit) as Omit<LexicalHit, "score">[];
  }

  return function lexicalSearch(
    terms: string[],
    scope: SearchScope,
    limit: number,
    options: LexicalOptions = DEFAULT_LEXICAL_OPTIONS,
  ): LexicalHit[] {
    const { kept, ceiling: termCeiling, postings } = weighTerms(terms);
    if (kept.length === 0) return [];
    let afterRowid = 0;
    if (postings > POSTINGS_BUDGET) {
      const range = rowidRange.get() as { low: number | null; high: number | null };
      if (range.low !== null && range.high !== null) {
        afterRowid = range.high - Math.ceil(((range.high - range.low + 1) * POSTINGS_BUDGET) / postings);
      }
    }
    const query = ftsOrQuery(kept);
    const rows = rankThenScope(query, afterRowid, scope, limit, options);
    if (rows.length === 0) return [];
    const yardstick = termCeiling * options.contentWeight;
    return rows.map((row) => ({ ...row, score: yardstick > 0 ? Math.tanh((COVERAGE_GAIN * row.raw) / yardstick) : 0 }));
  };
}

export type LexicalSearch = ReturnType<typeof createLexicalSearch>;
