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
 * Most postings one query may score. An index scores every matching row (no early termination), so a query of
 * words found in most of 100k chunks costs seconds. Terms are taken rarest first while they fit the budget;
 * only when the rarest term alone is over it does the search keep to the newest chunks. docs/retrieval.md has
 * the figures.
 */
export const POSTINGS_BUDGET = 4_000;

/**
 * A term found once in an average-length text adds idf x content weight to BM25; the sum over the query's terms is
 * the yardstick, so raw / yardstick is the share of the query's idf mass a chunk covers (title hits and repeats push
 * it past 1). tanh squashes it into 0..1: covering about a third of it reads as 0.4.
 */
const COVERAGE_GAIN = 1.2;

/** BM25's idf as FTS5 computes it, floored as FTS5 floors it. */
export const bm25Idf = (rows: number, documents: number) => Math.max(1e-6, Math.log((rows - documents + 0.5) / (documents + 0.5)));

export interface ChosenTerms {
  kept: { term: string; idf: number }[];
  /** The kept terms' idf sum: the yardstick of `lexicalScore`. */
  ceiling: number;
  /** Rows holding a kept term, counted once per term. */
  postings: number;
}

/**
 * The terms worth matching, from each one's document count among the user's `rows` chunks: rarest first, the very
 * common dropped while rarer ones remain, and common ones joining while the postings stay within the budget. Both
 * engines' lexical searches choose with it, so they match the same terms.
 */
export function chooseTerms(counted: { term: string; documents: number }[], countedRows: number): ChosenTerms {
  // The row count is reused for a few seconds (lexical-search.ts), a term's count may be newer: a file added since
  // puts the term in more rows than the count says. Then N - n + 0.5 < 0, the idf is NaN, and so is every score with
  // it, and the search found nothing (a base of two files, the second just added: issue 52). A term's count is a
  // floor on the rows.
  const rows = Math.max(countedRows, ...counted.map((entry) => entry.documents));
  const weighed = counted.map((entry) => ({ ...entry, idf: bm25Idf(rows, entry.documents) }));
  const present = weighed.filter((entry) => entry.documents > 0);
  const rare = present.filter((entry) => entry.documents <= rows * MAX_DOCUMENT_SHARE);
  const candidates = (rare.length > 0 ? rare : present).sort((a, b) => a.documents - b.documents);
  const kept: typeof candidates = [];
  let postings = 0;
  for (const entry of candidates) {
    if (kept.length > 0 && postings + entry.documents > POSTINGS_BUDGET) break;
    kept.push(entry);
    postings += entry.documents;
  }
  return { kept: kept.map(({ term, idf }) => ({ term, idf })), ceiling: kept.reduce((sum, entry) => sum + entry.idf, 0), postings };
}

/** 0..1 from a positive BM25: tanh(1.2 x idf-weighted coverage); a chunk holding every query term once scores 0.83. */
export function lexicalScore(raw: number, ceiling: number, options: LexicalOptions): number {
  const yardstick = ceiling * options.contentWeight;
  return yardstick > 0 ? Math.tanh((COVERAGE_GAIN * raw) / yardstick) : 0;
}
