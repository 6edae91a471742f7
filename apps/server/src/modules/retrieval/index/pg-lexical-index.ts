import { chooseTerms, DEFAULT_LEXICAL_OPTIONS, lexicalScore, POSTINGS_BUDGET, type LexicalOptions } from "./lexical-scoring.ts";
import type { LexicalHit, SearchScope } from "./lexical-search.ts";
import { indexedWords } from "./query-terms.ts";
import type { SqlClient } from "../../../store/postgres/pg-vector-index.ts";

/** FTS5's BM25 constants (fts5_aux.c), so both engines rank alike. */
const K1 = 1.2;
const B = 0.75;
/** A user's row count and total length are counted again after this long, as lexical-search.ts does. */
const TOTAL_CACHE_MS = 5_000;
const INDEX_BATCH = 500;
/** Document counts past this many chunks are estimated from the newest this many, as lexical-search.ts does. */
const DF_SAMPLE = 2_000;
const RARE_IN_SAMPLE = 50;

/** A word as a tsvector or tsquery literal: quoted, so no word is read as syntax and none is normalised again. */
const quoted = (word: string) => `'${word.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/**
 * A chunk's words for `chunk_terms`: each distinct word once as a tsvector literal (for the GIN index), how often each
 * occurs in the name and in the text (BM25's frequencies, read by key), and the count of words (BM25's document
 * length, as FTS5 counts it over both columns).
 */
export function chunkTerms(title: string, content: string): { terms: string; counts: string; length: number } {
  const counts = new Map<string, [number, number]>();
  const titleWords = indexedWords(title);
  const contentWords = indexedWords(content);
  const count = (words: string[], column: 0 | 1) => {
    for (const word of words) {
      const entry = counts.get(word) ?? [0, 0];
      entry[column] += 1;
      counts.set(word, entry);
    }
  };
  count(titleWords, 0);
  count(contentWords, 1);
  return {
    terms: Array.from(counts.keys(), quoted).join(" "),
    counts: JSON.stringify(Object.fromEntries(counts)),
    length: titleWords.length + contentWords.length,
  };
}

/**
 * BM25 over PostgreSQL's own text search (decision 059). Each chunk's words are kept in `chunk_terms` as a tsvector
 * under a GIN index (which chunks hold a word) with their counts beside it (how often), made from the same words the SQLite index holds (query-terms.ts `indexedWords`: searchText's
 * form, Porter stems), so a query matches the same chunks on both engines. Every statistic BM25 needs (row count,
 * average length, each term's document count) is counted over the searching user's rows alone, so one user's
 * documents never weigh in another's ranking. Rows follow `chunks` by a cascading key; `indexChunks` fills them.
 */
export async function openPgLexicalIndex(client: SqlClient) {
  await client.query(
    `CREATE TABLE IF NOT EXISTS chunk_terms (
       chunk_id BIGINT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
       user_id BIGINT NOT NULL,
       terms TSVECTOR NOT NULL,
       counts JSONB NOT NULL,
       length INTEGER NOT NULL
     )`,
  );
  // No pending list (fastupdate off): with it, new words wait in a list every search reads through until a vacuum
  // merges it, and the planner then scans the table instead (62 ms a query at 10k chunks, against 6 ms merged).
  const createWordIndex = () => client.query("CREATE INDEX IF NOT EXISTS chunk_terms_words ON chunk_terms USING gin (terms) WITH (fastupdate = off)");
  await createWordIndex();
  await client.query("CREATE INDEX IF NOT EXISTS chunk_terms_user ON chunk_terms (user_id, chunk_id)");
  const totals = new Map<number, { rows: number; averageLength: number; sampleAfter: number; at: number }>();

  /** The user's row count and average length, and the chunk id after which the newest DF_SAMPLE rows lie. */
  async function totalsOf(userId: number) {
    const cached = totals.get(userId);
    if (cached && performance.now() - cached.at < TOTAL_CACHE_MS) return cached;
    const { rows } = await client.query<{ rows: string; words: string | null }>(
      "SELECT count(*) AS rows, sum(length) AS words FROM chunk_terms WHERE user_id = $1",
      [userId],
    );
    const count = Number(rows[0]?.rows ?? 0);
    const sampleAfter = count > DF_SAMPLE ? await newestAfter(userId, DF_SAMPLE) : 0;
    const fresh = { rows: count, averageLength: count > 0 ? Number(rows[0]?.words ?? 0) / count : 0, sampleAfter, at: performance.now() };
    totals.set(userId, fresh);
    return fresh;
  }

  /** The chunk id after which the user's newest `count` chunks lie (0: there are no more than that). */
  async function newestAfter(userId: number, count: number): Promise<number> {
    const { rows } = await client.query<{ id: string }>("SELECT chunk_id AS id FROM chunk_terms WHERE user_id = $1 ORDER BY chunk_id DESC OFFSET $2 LIMIT 1", [
      userId,
      count,
    ]);
    return Number(rows[0]?.id ?? 0);
  }

  /**
   * Each term's count of the user's chunks after `after` holding it: one count per term, each answered by the GIN
   * index alone (testing every matching chunk's words for every term unpacked each chunk once a term: 3x slower).
   */
  async function countAfter(userId: number, terms: string[], after: number) {
    const params: unknown[] = [userId, after];
    const counts = terms.map((term) => {
      params.push(quoted(term));
      return `(SELECT count(*) FROM chunk_terms WHERE user_id = $1 AND chunk_id > $2 AND terms @@ $${params.length}::tsquery) AS "${params.length - 3}"`;
    });
    const { rows } = await client.query<Record<string, string>>(`SELECT ${counts.join(", ")}`, params);
    return terms.map((_, index) => Number(rows[0]?.[String(index)] ?? 0));
  }

  /**
   * Each term's count of the user's chunks holding it. Past DF_SAMPLE chunks, as on SQLite (lexical-search.ts), it is
   * estimated from the newest DF_SAMPLE, and counted exactly only for a term seldom seen there (its postings are few,
   * and a rare term absent from the newest chunks must not be taken for an absent one).
   */
  async function documentCounts(userId: number, terms: string[]) {
    const { rows, sampleAfter } = await totalsOf(userId);
    if (sampleAfter === 0) return (await countAfter(userId, terms, 0)).map((documents, index) => ({ term: terms[index]!, documents }));
    const sampled = await countAfter(userId, terms, sampleAfter);
    const rare = terms.filter((_, index) => sampled[index]! < RARE_IN_SAMPLE);
    const exact = rare.length > 0 ? await countAfter(userId, rare, 0) : [];
    return terms.map((term, index) => {
      const at = rare.indexOf(term);
      const documents = at >= 0 ? exact[at]! : Math.min(rows, Math.round((sampled[index]! * rows) / DF_SAMPLE));
      return { term, documents };
    });
  }

  return {
    /** Indexes (or indexes again, after a rename) the given chunks from `chunks` and their items' names. */
    async indexChunks(chunkIds: number[]): Promise<void> {
      for (let start = 0; start < chunkIds.length; start += INDEX_BATCH) {
        const { rows } = await client.query<{ id: string; userId: string; title: string; content: string }>(
          `SELECT c.id, c.user_id AS "userId", ki.name AS title, c.content FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
           WHERE c.id = ANY($1::bigint[])`,
          [chunkIds.slice(start, start + INDEX_BATCH)],
        );
        if (rows.length === 0) continue;
        const values: unknown[] = [];
        const tuples = rows.map((row, index) => {
          const { terms, counts, length } = chunkTerms(row.title, row.content);
          values.push(row.id, row.userId, terms, counts, length);
          const at = index * 5;
          return `($${at + 1}::bigint, $${at + 2}::bigint, $${at + 3}::tsvector, $${at + 4}::jsonb, $${at + 5}::integer)`;
        });
        await client.query(
          `INSERT INTO chunk_terms (chunk_id, user_id, terms, counts, length) VALUES ${tuples.join(", ")}
           ON CONFLICT (chunk_id) DO UPDATE SET terms = excluded.terms, counts = excluded.counts, length = excluded.length`,
          values,
        );
        for (const row of rows) totals.delete(Number(row.userId));
      }
    },

    /** Indexes every chunk not yet indexed (after `migrate` copied a store, or on an index made late). */
    async indexMissing(): Promise<number> {
      // Filling an empty index (after `migrate`), the GIN index is built once at the end: adding each chunk's words
      // to it as they come took most of the fill's time.
      const empty = (await client.query("SELECT 1 FROM chunk_terms LIMIT 1")).rows.length === 0;
      if (empty) await client.query("DROP INDEX IF EXISTS chunk_terms_words");
      let indexed = 0;
      for (let after = 0; ;) {
        const { rows } = await client.query<{ id: string }>(
          `SELECT c.id FROM chunks c WHERE c.id > $1 AND NOT EXISTS (SELECT 1 FROM chunk_terms t WHERE t.chunk_id = c.id)
           ORDER BY c.id LIMIT ${INDEX_BATCH * 4}`,
          [after],
        );
        if (rows.length === 0) break;
        await this.indexChunks(rows.map((row) => Number(row.id)));
        indexed += rows.length;
        after = Number(rows.at(-1)!.id);
      }
      if (empty) await createWordIndex();
      // A bulk fill leaves the planner's statistics behind until autovacuum comes by.
      if (indexed > 0) await client.query("ANALYZE chunk_terms");
      return indexed;
    },

    /** The user's best chunks for the query's terms (query-terms.ts `queryTerms`), within the scope, best first. */
    async search(terms: string[], scope: SearchScope, limit: number, options: LexicalOptions = DEFAULT_LEXICAL_OPTIONS): Promise<LexicalHit[]> {
      if (terms.length === 0) return [];
      // Two words of one stem count twice, as two phrases do in FTS5's bm25().
      const stems = terms.map((term) => indexedWords(term)[0]).filter((stem): stem is string => stem !== undefined);
      if (stems.length === 0) return [];
      const { rows: userRows, averageLength } = await totalsOf(scope.userId);
      if (userRows === 0) return [];
      const { kept, ceiling, postings } = chooseTerms(await documentCounts(scope.userId, stems), userRows);
      if (kept.length === 0) return [];
      // Only when the rarest term alone is over the budget: the newest chunks, as many as the budget pays for.
      const after = postings > POSTINGS_BUDGET ? await newestAfter(scope.userId, Math.ceil((userRows * POSTINGS_BUDGET) / postings)) : 0;
      const params: unknown[] = [
        scope.userId,
        after,
        kept.map((entry) => entry.term),
        kept.map((entry) => entry.idf),
        options.titleWeight,
        options.contentWeight,
        averageLength,
        limit,
        kept.map((entry) => quoted(entry.term)),
      ];
      let conversation = "";
      if (scope.conversationId === null) conversation = "AND c.conversation_id IS NULL";
      else if (scope.conversationId !== undefined) {
        params.push(scope.conversationId);
        conversation = `AND (c.conversation_id IS NULL OR c.conversation_id = $${params.length})`;
      }
      // BM25 as FTS5 computes it: a term's frequency weighs its name and text counts by their columns' weights. Each
      // term finds its chunks through the GIN index and reads its counts there, so the work is the postings, not
      // every matching chunk times every term; the hits are materialised so each chunk's counts are unpacked once.
      // Without a conversation's scope the best are kept before `chunks` is read for their items.
      const { rows } = await client.query<{ chunkId: string; itemId: string; raw: number }>(
        `WITH q AS (SELECT * FROM unnest($3::text[], $4::float8[], $9::tsquery[]) AS q(term, idf, query)),
         hits AS MATERIALIZED (
           SELECT t.chunk_id, q.idf, t.length, t.counts -> q.term AS counts
           FROM q JOIN chunk_terms t ON t.user_id = $1 AND t.chunk_id > $2 AND t.terms @@ q.query),
         scored AS (
           SELECT chunk_id, sum(idf * (tf * ${K1 + 1}) / (tf + ${K1} * (${1 - B} + ${B} * length / $7::float8)))::float8 AS raw
           FROM (SELECT chunk_id, idf, length, (counts ->> 0)::float8 * $5::float8 + (counts ->> 1)::float8 * $6::float8 AS tf FROM hits) h
           GROUP BY chunk_id)
         SELECT s.chunk_id AS "chunkId", c.item_id AS "itemId", s.raw
         FROM ${conversation ? "scored" : "(SELECT * FROM scored ORDER BY raw DESC, chunk_id LIMIT $8)"} s JOIN chunks c ON c.id = s.chunk_id
         WHERE true ${conversation}
         ORDER BY s.raw DESC, s.chunk_id LIMIT $8`,
        params,
      );
      return rows.map((row) => ({ chunkId: Number(row.chunkId), itemId: Number(row.itemId), raw: row.raw, score: lexicalScore(row.raw, ceiling, options) }));
    },
  };
}

export type PgLexicalIndex = Awaited<ReturnType<typeof openPgLexicalIndex>>;
