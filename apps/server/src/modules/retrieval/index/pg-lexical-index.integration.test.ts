import { makeTempDir } from "@sage/testkit/temp-dir";
import { POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "@sage/testkit/postgres-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSearch, type LexicalHit } from "./lexical-search.ts";
import { queryTerms } from "./query-terms.ts";
import { insertConversation, insertKnowledge } from "../retrieval-test-helpers.ts";
import { openStore } from "../../../store/open-store.ts";
import { copySqliteToPostgres } from "../../../store/postgres/copy-to-postgres.ts";
import { openPgLexicalIndex, type PgLexicalIndex } from "./pg-lexical-index.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);
const ME = 3;
const OTHER = 4;

/** What a search answers, in the form both engines are compared in. */
const ranked = (hits: LexicalHit[]) => hits.map((hit) => ({ chunkId: hit.chunkId, raw: Number(hit.raw.toFixed(4)), score: Number(hit.score.toFixed(4)) }));

describe.skipIf(!installed)("lexical search in PostgreSQL's own text search (PostgreSQL 15)", () => {
  const temp = makeTempDir();
  let server: PostgresServer;
  let pool: pg.Pool;
  let url: string;
  let index: PgLexicalIndex;
  let sqliteSearch: ReturnType<typeof createLexicalSearch>;
  let store: ReturnType<typeof openStore>;
  const ids = { quiet: 0, budget: [] as number[] };

  beforeAll(async () => {
    // One installation on SQLite, copied into PostgreSQL as `sage-admin migrate` copies it; then both are searched.
    store = openStore({ dataDir: temp.dir });
    const now = new Date().toISOString();
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (?, 'me', 'x', ?), (?, 'other', 'x', ?)").run(ME, now, OTHER, now);
    ids.quiet = insertConversation(store.sqlite, ME, "Quiet");
    insertKnowledge(store.sqlite, {
      userId: ME,
      name: "Travel budget 2026.txt",
      chunks: [
        "The travel budget covers trains, hotels and conference fees for the quarter.",
        "Hotels in Lisbon cost more in June; the budget allows four nights.",
        "Conference fees are paid by the events team, not from this budget.",
      ],
    });
    insertKnowledge(store.sqlite, {
      userId: ME,
      name: "Hiring plan.md",
      chunks: ["Hiring: two engineers and a designer, budget approved in March.", "Interviews run through April; offers go out in May."],
    });
    ids.budget = insertKnowledge(store.sqlite, {
      userId: ME,
      conversationId: ids.quiet,
      name: "Notes.txt",
      chunks: ["Anna surveys the harbour works; the surveys are approved on Mondays.", "Café budget: croissants and coffee for the offsite."],
    }).chunkIds;
    insertKnowledge(store.sqlite, { userId: OTHER, name: "Other budget.txt", chunks: ["budget budget hotels trains", "nothing of interest here"] });
    sqliteSearch = createLexicalSearch(store.sqlite);

    server = await startPostgres();
    url = await server.createDatabase();
    await store.close();
    await copySqliteToPostgres({ dataDir: temp.dir, url });
    store = openStore({ dataDir: temp.dir });
    sqliteSearch = createLexicalSearch(store.sqlite);
    pool = new pg.Pool({ connectionString: url, max: 2 });
    index = await openPgLexicalIndex(pool);
    expect(await index.indexMissing()).toBe(9);
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    await store?.close();
    temp.remove();
  });

  it("ranks each query's chunks as SQLite's FTS5 does, with the same BM25 and scores", async () => {
    for (const query of ["travel budget", "hotels", "Hotels in Lisbon budget", "surveys approved", "cafe", "conference fees trains"]) {
      const terms = queryTerms(query);
      const onSqlite = ranked(sqliteSearch(terms, { userId: ME }, 10));
      expect(onSqlite.length, query).toBeGreaterThan(0);
      expect(ranked(await index.search(terms, { userId: ME }, 10)), query).toEqual(onSqlite);
    }
  });

  it("counts every statistic over the searching user's own chunks: another user's writes change nothing", async () => {
    const terms = queryTerms("budget hotels");
    const before = ranked(await index.search(terms, { userId: ME }, 10));
    const now = new Date().toISOString();
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO knowledge_items (user_id, type, name, created_at, updated_at) VALUES ($1, 'note', 'Hotels', $2, $2) RETURNING id",
      [OTHER, now],
    );
    const added = await pool.query<{ id: string }>(
      `INSERT INTO chunks (item_id, user_id, position, content, created_at)
       SELECT $1, $2, n, 'budget hotels budget hotels ' || n, $3 FROM generate_series(1, 200) n RETURNING id`,
      [rows[0]!.id, OTHER, now],
    );
    await index.indexChunks(added.rows.map((row) => Number(row.id)));
    expect(ranked(await index.search(terms, { userId: ME }, 10))).toEqual(before);
    // The other user's 200 new chunks and both earlier ones (their item's name says "budget").
    expect((await index.search(terms, { userId: OTHER }, 300)).length).toBe(202);
  });

  it("keeps a large user's results the same whatever another user writes between their chunks (search-privacy.test.ts)", async () => {
    // As on SQLite: 4,500 chunks, past the 2,000 newest that word counts are estimated from, and "quarterly" alone
    // over the 4,000-postings budget, so that query keeps to the user's newest chunks.
    const texts = Array.from({ length: 4_500 }, (_, index) =>
      index % 7 === 0 ? `quarterly revenue note ${index} with the margin forecast` : `meeting minutes ${index} about travel and the quarterly plan`,
    );
    const copied = async (fill: (sqlite: ReturnType<typeof openStore>["sqlite"]) => void) => {
      const folder = makeTempDir();
      const source = openStore({ dataDir: folder.dir });
      source.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'me', 'x', 'x'), (4, 'other', 'x', 'x')").run();
      fill(source.sqlite);
      await source.close();
      const url = await server.createDatabase();
      await copySqliteToPostgres({ dataDir: folder.dir, url });
      folder.remove();
      const copy = new pg.Pool({ connectionString: url, max: 2 });
      const lexical = await openPgLexicalIndex(copy);
      await lexical.indexMissing();
      const results = async (terms: string[]) => {
        const hits = await lexical.search(terms, { userId: ME }, 20);
        const { rows } = await copy.query<{ id: string; content: string }>("SELECT id, content FROM chunks WHERE id = ANY($1::bigint[])", [
          hits.map((hit) => hit.chunkId),
        ]);
        const contents = new Map(rows.map((row) => [Number(row.id), row.content]));
        return hits.map((hit) => [contents.get(hit.chunkId), hit.score.toFixed(9)]);
      };
      return { results, close: () => copy.end() };
    };
    const alone = await copied((sqlite) => insertKnowledge(sqlite, { userId: ME, name: "minutes.txt", chunks: texts }));
    const shared = await copied((sqlite) => {
      for (let start = 0; start < texts.length; start += 100) {
        insertKnowledge(sqlite, { userId: ME, name: "minutes.txt", chunks: texts.slice(start, start + 100) });
        insertKnowledge(sqlite, { userId: OTHER, name: "their-forecast.txt", chunks: Array.from({ length: 60 }, () => "forecast margin forecast quarterly") });
      }
    });
    try {
      for (const terms of [["quarterly", "margin", "forecast"], ["quarterly"]]) {
        const own = await alone.results(terms);
        expect(own).toHaveLength(20);
        if (terms.length === 1) expect(own.every(([content]) => Number(/\d+/.exec(content!)![0]) >= 500)).toBe(true);
        expect(await shared.results(terms)).toEqual(own);
      }
    } finally {
      await alone.close();
      await shared.close();
    }
  });

  it("finds a passage indexed by one process at once from another on the same database", async () => {
    // Two SAGE processes share nothing but the database: B's index was opened before A wrote.
    const processB = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const indexB = await openPgLexicalIndex(processB);
      expect(await indexB.search(queryTerms("quokka census"), { userId: ME }, 5)).toEqual([]);
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO chunks (item_id, user_id, position, content, created_at)
         SELECT item_id, user_id, 99, 'The quokka census on Rottnest counted 12,000.', created_at FROM chunks WHERE user_id = $1 LIMIT 1 RETURNING id`,
        [ME],
      );
      await index.indexChunks([Number(rows[0]!.id)]);
      expect((await indexB.search(queryTerms("quokka census"), { userId: ME }, 5)).map((hit) => hit.chunkId)).toEqual([Number(rows[0]!.id)]);
    } finally {
      await processB.end();
    }
  });

  it("keeps to a conversation's scope, forgets a deleted chunk and finds an item by its new name", async () => {
    const inQuiet = await index.search(queryTerms("surveys"), { userId: ME, conversationId: ids.quiet }, 5);
    expect(inQuiet.map((hit) => hit.chunkId)).toEqual([ids.budget[0]]);
    expect(await index.search(queryTerms("surveys"), { userId: ME, conversationId: null }, 5)).toEqual([]);
    expect(await index.search(queryTerms("surveys"), { userId: ME, conversationId: ids.quiet + 1 }, 5)).toEqual([]);

    await pool.query("DELETE FROM chunks WHERE id = $1", [ids.budget[0]]);
    expect(await index.search(queryTerms("surveys"), { userId: ME }, 5)).toEqual([]);

    await pool.query("UPDATE knowledge_items SET name = 'Zanzibar offsite.txt' WHERE id = (SELECT item_id FROM chunks WHERE id = $1)", [ids.budget[1]]);
    expect(await index.search(queryTerms("zanzibar"), { userId: ME }, 5)).toEqual([]);
    await index.indexChunks([ids.budget[1]!]);
    expect((await index.search(queryTerms("zanzibar"), { userId: ME }, 5)).map((hit) => hit.chunkId)).toEqual([ids.budget[1]]);
  });
});
