import type BetterSqlite3 from "better-sqlite3";
import { createFtsTotals } from "./fts-totals.ts";
import { createLexicalIndex, type LexicalIndex } from "./lexical-index.ts";
import { chooseTerms, DEFAULT_LEXICAL_OPTIONS, lexicalScore, POSTINGS_BUDGET, type LexicalOptions } from "./lexical-scoring.ts";
import { ftsOrQuery, indexTerm } from "./query-terms.ts";

/** Which chunks a search may see. conversationId: undefined = all of the user's, null = system only. */
export interface SearchScope {
  userId: number;
  conversationId?: number | null;
}

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

/** One user's table and what searching it needs: statements, live row count, cached document counts. */
function userIndex(sqlite: BetterSqlite3.Database, table: string) {
  const ftsTotals = createFtsTotals(sqlite, table);
  const liveRows = sqlite.prepare(`SELECT count(*) FROM ${table}_docsize`).pluck();
  // The n-th newest of the user's rows, by position rather than by id: ids are shared by every user, so a window
  // by id span would widen or narrow with other users' writes.
  const nthNewest = sqlite.prepare(`SELECT id FROM ${table}_docsize ORDER BY id DESC LIMIT 1 OFFSET ?`).pluck();
  const nthOldest = sqlite.prepare(`SELECT id FROM ${table}_docsize ORDER BY id LIMIT 1 OFFSET ?`).pluck();
  const documentCount = sqlite.prepare(`SELECT doc FROM ${table}_vocab WHERE term = ?`).pluck();
  const sampledCount = sqlite.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ? AND rowid > ?`).pluck();
  let cached = { rows: 0, sampleAfter: 0, at: -Infinity };
  const documents = new Map<string, { documents: number; at: number }>();

  /** Live rows, and the rowid after which the newest DF_SAMPLE rows lie; counted again every few seconds. */
  function totals() {
    if (performance.now() - cached.at > TOTAL_CACHE_MS) {
      const rows = liveRows.get() as number;
      const sampleAfter = rows > DF_SAMPLE ? ((nthNewest.get(DF_SAMPLE) as number | undefined) ?? 0) : 0;
      cached = { rows, sampleAfter, at: performance.now() };
      // Deletes and renames leave bm25's row count behind (fts-totals.ts); put it right once it is off by 2%.
      if (ftsTotals.drift(rows) > Math.max(20, rows * 0.02)) ftsTotals.repair();
    }
    return cached;
  }

  // fts5vocab counts a term's documents by walking its whole doclist: fine up to a few thousand rows, but 8 ms
  // for a word in 85k chunks. Past DF_SAMPLE rows the count is estimated from the newest DF_SAMPLE chunks,
  // and counts are reused for a few seconds.
  function documentsWith(term: string): number {
    const hit = documents.get(term);
    if (hit && performance.now() - hit.at < TOTAL_CACHE_MS) return hit.documents;
    const count = countDocuments(term);
    if (documents.size > 5_000) documents.clear();
    documents.set(term, { documents: count, at: performance.now() });
    return count;
  }
  function countDocuments(term: string): number {
    const { rows, sampleAfter } = totals();
    // The vocabulary is read under the term's Porter stem as JavaScript computes it; FTS5's stemmer works on UTF-8
    // bytes and can differ on other scripts, so a stem it does not know is counted by FTS5 itself (cheap when rare).
    const exact = () => (documentCount.get(indexTerm(term)) as number | undefined) ?? (sampledCount.get(ftsOrQuery([term]), 0) as number);
    if (rows <= DF_SAMPLE) return exact();
    const found = sampledCount.get(ftsOrQuery([term]), sampleAfter) as number;
    // A term seldom seen in the sample has a short doclist, so its exact count is cheap (and a rare term
    // absent from the newest chunks must not be mistaken for an absent one).
    if (found < 50) return exact();
    return Math.min(rows, Math.round((found * rows) / DF_SAMPLE));
  }

  return {
    table,
    rows: () => totals().rows,
    documentsWith,
    /** The rowid after which the newest `count` rows lie (0: all of them); an OFFSET walks rows, so from the nearer end. */
    newestAfter(count: number): number {
      const { rows } = totals();
      if (count >= rows) return 0;
      const fromOldest = rows - count - 1;
      return ((fromOldest < count ? nthOldest.get(fromOldest) : nthNewest.get(count)) as number | undefined) ?? 0;
    },
  };
}

/**
 * BM25 over the searching user's own FTS5 table (lexical-index.ts), so row counts, lengths and document counts,
 * and with them every score, depend only on that user's chunks.
 */
export function createLexicalSearch(sqlite: BetterSqlite3.Database, index: LexicalIndex = createLexicalIndex(sqlite)) {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const users = new Map<string, ReturnType<typeof userIndex>>();
  function userTable(userId: number) {
    const table = index.prepare(userId);
    if (!table) return null;
    let user = users.get(table);
    if (!user) {
      user = userIndex(sqlite, table);
      users.set(table, user);
    }
    return user;
  }

  /** Keeps the terms worth matching and their idf sum (lexical-scoring.ts). */
  function weighTerms(user: ReturnType<typeof userIndex>, terms: string[]) {
    const chosen = chooseTerms(
      terms.map((term) => ({ term, documents: user.documentsWith(term) })),
      user.rows(),
    );
    return { kept: chosen.kept.map((entry) => entry.term), ceiling: chosen.ceiling, postings: chosen.postings };
  }

  /**
   * FTS5 ranks first (bm25 over the matches alone, top rows only) and the scope is checked on those rows:
   * joining `chunks` for every matching row made the query 4x slower at 100k chunks. When the scope removes
   * too many of them (a conversation's view of a large base), the window widens, and at last the join
   * decides on every row, so the answer is always the scope's true top `limit`.
   */
  function rankThenScope(table: string, query: string, afterRowid: number, scope: SearchScope, limit: number, options: LexicalOptions) {
    const where = scopeSql(scope, "c");
    const weights = [options.titleWeight, options.contentWeight];
    for (let window = limit; window <= limit * WIDEST_WINDOW; window *= 8) {
      const ranked = prepare(
        `SELECT f.id AS chunkId, c.item_id AS itemId, f.raw AS raw
         FROM (SELECT rowid AS id, -bm25(${table}, ?, ?) AS raw FROM ${table}
               WHERE ${table} MATCH ? AND rowid > ? ORDER BY raw DESC LIMIT ?) f
         LEFT JOIN chunks c ON c.id = f.id AND ${where.sql}
         ORDER BY f.raw DESC, f.id`,
      ).all(...weights, query, afterRowid, window, ...where.params) as (Omit<LexicalHit, "score" | "itemId"> & { itemId: number | null })[];
      const inScope = ranked.filter((row): row is Omit<LexicalHit, "score"> => row.itemId !== null);
      // Fewer rows than the window means every match was seen, so nothing in scope can be missing.
      if (inScope.length >= limit || ranked.length < window) return inScope.slice(0, limit);
    }
    return prepare(
      `SELECT c.id AS chunkId, c.item_id AS itemId, -bm25(${table}, ?, ?) AS raw
       FROM ${table} JOIN chunks c ON c.id = ${table}.rowid
       WHERE ${table} MATCH ? AND ${table}.rowid > ? AND ${where.sql}
       ORDER BY raw DESC, c.id LIMIT ?`,
    ).all(...weights, query, afterRowid, ...where.params, limit) as Omit<LexicalHit, "score">[];
  }

  return function lexicalSearch(terms: string[], scope: SearchScope, limit: number, options: LexicalOptions = DEFAULT_LEXICAL_OPTIONS): LexicalHit[] {
    const user = userTable(scope.userId);
    if (!user) return [];
    const { kept, ceiling: termCeiling, postings } = weighTerms(user, terms);
    if (kept.length === 0) return [];
    // Only when the rarest term alone is over the budget: the newest chunks, as many as the budget pays for.
    const afterRowid = postings > POSTINGS_BUDGET ? user.newestAfter(Math.ceil((user.rows() * POSTINGS_BUDGET) / postings)) : 0;
    const rows = rankThenScope(user.table, ftsOrQuery(kept), afterRowid, scope, limit, options);
    if (rows.length === 0) return [];
    return rows.map((row) => ({ ...row, score: lexicalScore(row.raw, termCeiling, options) }));
  };
}

export type LexicalSearch = ReturnType<typeof createLexicalSearch>;
