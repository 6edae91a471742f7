/**
 * `npx tsx bench/text-form-cost.ts [chunks]`: what indexing text in searchText's form (decision 028) costs beside
 * the form before it (the text as written, `porter unicode61 remove_diacritics 2`), for 100,000 chunks (default) of
 * three corpora: the bench's English-like synthetic text (ASCII), European text and CJK text, the last two composed
 * of TypeScript's translated compiler messages (`typescript/lib/<language>/`, Apache 2.0). Each form gets a fresh
 * database; figures: the time to index every chunk (one INSERT ... SELECT, as a rebuild does), the file size, and
 * p50/p95 of the bare FTS5 query (MATCH of the query's ORed terms, ORDER BY bm25 LIMIT 40) for 200 queries. Then, for
 * the current form, p50/p95 of the same queries through the retrieval service (searchChunks, limit 5: postings budget,
 * term drop) on a SAGE store holding the chunks, after one warm pass.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { makeTempDir } from "../packages/testkit/src/temp-dir.ts";
import { openStore } from "../apps/server/src/store/open-store.ts";
import { createLexicalIndex } from "../apps/server/src/modules/retrieval/index/lexical-index.ts";
import { benchRetrieval } from "./lib/retrieval-service.ts";
import { registerSearchText, SEARCH_TEXT_FUNCTION } from "../apps/server/src/modules/retrieval/index/search-text.ts";
import { ftsOrQuery, queryTerms } from "../apps/server/src/modules/retrieval/index/query-terms.ts";
import { passage, queries as englishQueries } from "./lib/corpus.mjs";
import { rng } from "./lib/seed-chunks.mjs";

const CHUNKS = Number(process.argv[2] ?? 100_000);
const QUERIES = 200;
const require = createRequire(import.meta.url);
const typescriptLib = path.join(path.dirname(require.resolve("typescript/package.json")), "lib");
const messages = (language: string): string[] =>
  Object.values(JSON.parse(readFileSync(path.join(typescriptLib, language, "diagnosticMessages.generated.json"), "utf8")) as Record<string, string>);

/** Chunks of ~950 characters, each of random messages of one language. */
function composed(languages: string[], seed: number): string[] {
  const random = rng(seed);
  const pools = languages.map(messages);
  return Array.from({ length: CHUNKS }, () => {
    const pool = pools[Math.floor(random() * pools.length)]!;
    let text = "";
    while (text.length < 950) text += (text ? " " : "") + pool[Math.floor(random() * pool.length)];
    return text;
  });
}

/** Queries of 2-3 words (European) or a 4-character piece (CJK) taken from random chunks. */
function sampledQueries(chunks: string[], cjk: boolean, seed: number): string[] {
  const random = rng(seed);
  return Array.from({ length: QUERIES }, () => {
    const text = chunks[Math.floor(random() * chunks.length)]!;
    if (cjk) {
      const runs = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{4,}/gu) ?? [text];
      const run = [...runs[Math.floor(random() * runs.length)]!];
      const start = Math.floor(random() * (run.length - 3));
      return run.slice(start, start + 4).join("");
    }
    const words = text.match(/[\p{L}\p{M}]{4,}/gu) ?? [];
    const start = Math.floor(random() * Math.max(1, words.length - 3));
    return words.slice(start, start + 2 + Math.floor(random() * 2)).join(" ");
  });
}

/**
 * The query terms before text form 2: NFKD, split at anything not a letter or digit (marks too), marks dropped,
 * stopwords dropped (for ASCII words queryTerms still gives what it gave).
 */
const formerTerms = (query: string) =>
  [
    ...new Set(
      [
        ...query
          .normalize("NFKD")
          .toLowerCase()
          .matchAll(/[\p{L}\p{N}]+/gu),
      ].map((match) => match[0].replace(/\p{M}/gu, "")),
    ),
  ]
    .filter((term) => !/^[a-z]+$/.test(term) || queryTerms(term).length > 0)
    .slice(0, 48);

const FORMS = {
  "as written (form 1)": { tokenize: "porter unicode61 remove_diacritics 2", text: "content", terms: formerTerms },
  "searchText (form 2)": {
    tokenize: "porter unicode61 remove_diacritics 2 categories ''L* N* Co M*''",
    text: `${SEARCH_TEXT_FUNCTION}(content)`,
    terms: queryTerms,
  },
};

function measure(corpus: string, chunks: string[], queries: string[]) {
  for (const [form, setup] of Object.entries(FORMS)) {
    const temp = makeTempDir();
    const file = path.join(temp.dir, "index.db");
    const sqlite = new BetterSqlite3(file);
    try {
      registerSearchText(sqlite);
      sqlite.exec(`CREATE TABLE chunks (id INTEGER PRIMARY KEY, content TEXT NOT NULL)`);
      const insert = sqlite.prepare("INSERT INTO chunks (content) VALUES (?)");
      sqlite.transaction(() => chunks.forEach((text) => insert.run(text)))();
      const before = statSync(file).size;
      sqlite.exec(`CREATE VIRTUAL TABLE fts USING fts5(content, content = '', contentless_delete = 1, tokenize = '${setup.tokenize}')`);
      const started = performance.now();
      sqlite.exec(`INSERT INTO fts(rowid, content) SELECT id, ${setup.text} FROM chunks ORDER BY id`);
      const indexMs = performance.now() - started;
      sqlite.exec("INSERT INTO fts(fts) VALUES ('optimize'); VACUUM");
      const indexBytes = statSync(file).size - before;
      const query = sqlite.prepare("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 40");
      const times: number[] = [];
      let answered = 0;
      for (const text of queries) {
        const terms = setup.terms(text);
        const t0 = performance.now();
        const rows = terms.length > 0 ? query.all(ftsOrQuery(terms)) : [];
        times.push(performance.now() - t0);
        if (rows.length > 0) answered++;
      }
      times.sort((a, b) => a - b);
      console.log(
        JSON.stringify({
          corpus,
          form,
          chunks: chunks.length,
          index_s: Number((indexMs / 1000).toFixed(2)),
          index_mb: Number((indexBytes / 2 ** 20).toFixed(1)),
          query_p50_ms: Number(times[Math.floor(times.length / 2)]!.toFixed(2)),
          query_p95_ms: Number(times[Math.floor(times.length * 0.95)]!.toFixed(2)),
          queries_answered: `${answered}/${queries.length}`,
        }),
      );
    } finally {
      sqlite.close();
      temp.remove();
    }
  }
}

/** The queries through the retrieval service on a SAGE store whose user holds the chunks (100 to an item). */
async function measureService(corpus: string, chunks: string[], queries: string[]) {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  try {
    const { sqlite } = store;
    sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'cost', 'x', ?)").run(new Date().toISOString());
    createLexicalIndex(sqlite).ensure(1);
    const now = new Date().toISOString();
    const addItem = sqlite.prepare("INSERT INTO knowledge_items (user_id, type, name, created_at, updated_at) VALUES (1, 'file', ?, ?, ?)");
    const addChunk = sqlite.prepare("INSERT INTO chunks (item_id, user_id, position, source, content, created_at) VALUES (?, 1, ?, '', ?, ?)");
    sqlite.transaction(() => {
      let itemId = 0;
      chunks.forEach((text, index) => {
        if (index % 100 === 0) itemId = Number(addItem.run(`file ${index / 100}.txt`, now, now).lastInsertRowid);
        addChunk.run(itemId, index % 100, text, now);
      });
    })();
    const service = benchRetrieval(sqlite);
    for (const query of queries) await service.searchChunks(query, { userId: 1 }, 5);
    const times: number[] = [];
    for (const query of queries) {
      const t0 = performance.now();
      await service.searchChunks(query, { userId: 1 }, 5);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        corpus,
        form: "searchText (form 2), retrieval service",
        chunks: chunks.length,
        search_p50_ms: Number(times[Math.floor(times.length / 2)]!.toFixed(2)),
        search_p95_ms: Number(times[Math.floor(times.length * 0.95)]!.toFixed(2)),
      }),
    );
  } finally {
    await store.close();
    temp.remove();
  }
}

const english = Array.from({ length: CHUNKS }, (_, index) => passage(rng(1000 + index), index % 300));
const englishAsked = englishQueries(QUERIES);
measure("english (synthetic, ASCII)", english, englishAsked);
await measureService("english (synthetic, ASCII)", english, englishAsked);
const european = composed(["de", "fr", "cs", "es", "pl", "ru"], 5);
const europeanAsked = sampledQueries(european, false, 6);
measure("european (de fr cs es pl ru)", european, europeanAsked);
await measureService("european (de fr cs es pl ru)", european, europeanAsked);
const cjk = composed(["ja", "zh-cn", "zh-tw", "ko"], 7);
const cjkAsked = sampledQueries(cjk, true, 8);
measure("cjk (ja zh-cn zh-tw ko)", cjk, cjkAsked);
await measureService("cjk (ja zh-cn zh-tw ko)", cjk, cjkAsked);
