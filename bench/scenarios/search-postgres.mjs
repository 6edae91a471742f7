import path from "node:path";
import { figure, percentile } from "../lib/figure.mjs";
import { queries } from "../lib/corpus.mjs";
import { httpSearchBothEngines } from "../lib/http-search-both-engines.mjs";
import { DEMO_USER_ID, searchStore } from "../lib/search-store.mjs";
import { ROOT } from "../lib/server.mjs";

const serverSrc = path.join(ROOT, "apps/server/src");
const QUERIES = 50;
const CANDIDATES = 40; // retrieval.service: max(limit x 4, 40) with the default limit 5

/**
 * Lexical search on PostgreSQL beside SQLite's (issue 34, decision 059): the cached search store (100k chunks, or
 * 10k with --quick) copied into a PostgreSQL 15 started for the run as `sage-admin migrate` copies it, its lexical
 * index filled, then the same queries on both engines in this process. The limit is SQLite's FTS5 search on the same
 * store in the same run; the overlap of the two top tens says they rank alike at this size. Needs Debian's
 * postgresql package (skipped, saying so, without it).
 */
export async function searchPostgres({ quick }) {
  const { postgresInstalled, POSTGRES_MISSING } = await import(path.join(ROOT, "packages/testkit/src/postgres-server.ts"));
  if (!postgresInstalled()) {
    console.error(`# search-postgres: ${POSTGRES_MISSING}`);
    return [];
  }
  const { openStore } = await import(path.join(serverSrc, "store/open-store.ts"));
  const { createLexicalSearch } = await import(path.join(serverSrc, "modules/retrieval/index/lexical-search.ts"));
  const { queryTerms } = await import(path.join(serverSrc, "modules/retrieval/index/query-terms.ts"));
  const { postgresLexicalRun } = await import(path.join(ROOT, "bench/lib/postgres-lexical-run.ts"));
  const files = quick ? 1_000 : 10_000;
  const chunks = files * 10;
  const scale = `${chunks / 1000}k`;
  const dataDir = await searchStore({ files, chunksPerFile: 10 });
  const copyStarted = performance.now();
  const postgres = await postgresLexicalRun(dataDir);
  const copyMs = performance.now() - copyStarted - postgres.indexMs;
  const store = openStore({ dataDir });
  try {
    const sqliteSearch = createLexicalSearch(store.sqlite);
    const scope = { userId: DEMO_USER_ID };
    const terms = queries(QUERIES).map((query) => queryTerms(query));
    const timed = { sqlite: [], postgres: [] };
    let overlap = 0;
    for (let round = 0; round < (quick ? 2 : 4); round++) {
      for (const query of terms) {
        let startedAt = performance.now();
        const onSqlite = sqliteSearch(query, scope, CANDIDATES);
        timed.sqlite.push(performance.now() - startedAt);
        startedAt = performance.now();
        const onPostgres = await postgres.index.search(query, scope, CANDIDATES);
        timed.postgres.push(performance.now() - startedAt);
        if (round === 0) {
          const top = new Set(onSqlite.slice(0, 10).map((hit) => hit.chunkId));
          const shared = onPostgres.slice(0, 10).filter((hit) => top.has(hit.chunkId)).length;
          overlap += top.size > 0 ? shared / top.size : 1;
        }
      }
    }
    const params = { chunks, queries: QUERIES, candidates: CANDIDATES, engine: "PostgreSQL 15, lexical index of decision 059" };
    const http = await httpSearchBothEngines({ dataDir, databaseUrl: postgres.url, queries: queries(QUERIES), rounds: quick ? 2 : 4 });
    const httpParams = {
      chunks,
      dimensions: 768,
      queries: QUERIES,
      vectors: "exact in the process (no pgvector in Debian)",
      firstSearchMs: Math.round(http.postgresFirstSearchMs),
    };
    return [
      figure({
        name: `search.lexical_p50.postgres_${scale}`,
        value: percentile(timed.postgres, 50),
        limit: percentile(timed.sqlite, 50),
        unit: "ms",
        better: "lower",
        params,
      }),
      figure({
        name: `search.lexical_p95.postgres_${scale}`,
        value: percentile(timed.postgres, 95),
        limit: percentile(timed.sqlite, 95),
        unit: "ms",
        better: "lower",
        params,
      }),
      figure({
        name: `search.http_p95.postgres_${scale}_768d`,
        value: http.postgresP95,
        limit: http.sqliteP95,
        unit: "ms",
        better: "lower",
        params: { ...httpParams, p50Ms: http.postgresP50 },
      }),
      figure({ name: `search.lexical_top10_overlap.postgres_${scale}`, value: overlap / terms.length, unit: "share", target: 0.9, params }),
      figure({ name: `postgres.migrate_copy_ms.${scale}`, value: copyMs, unit: "ms", better: "lower", params }),
      figure({ name: `postgres.lexical_index_fill_ms.${scale}`, value: postgres.indexMs, unit: "ms", better: "lower", params }),
    ];
  } finally {
    await store.close();
    await postgres.stop();
  }
}
