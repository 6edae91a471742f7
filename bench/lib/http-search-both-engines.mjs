import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { percentile } from "./figure.mjs";
import { startFakeEmbedder } from "./fake-embedder.mjs";
import { postJson } from "./post-json.mjs";
import { BENCH_SECRET_KEY, startSage } from "./server.mjs";
import { buildMissingIndexes, waitForVectorIndex } from "./vector-index-ready.mjs";

const DIMENSIONS = 768;

/**
 * POST /api/search (hybrid: words and 768-d vectors) on SAGE over the SQLite store and on SAGE over its copy in
 * PostgreSQL, the same queries in turn so both see the machine in the same state. Without pgvector the PostgreSQL
 * process searches the vectors exactly (decision 060); its first search reads them into memory.
 */
export async function httpSearchBothEngines({ dataDir, databaseUrl, queries, rounds }) {
  await buildMissingIndexes(dataDir, [DIMENSIONS]);
  const fake = await startFakeEmbedder();
  const files = mkdtempSync(path.join(tmpdir(), "sage-bench-files-"));
  const servers = [];
  try {
    const env = fake.envFor(DIMENSIONS);
    const engines = {
      sqlite: await startSage({ dataDir, env, label: "search-sqlite" }),
      postgres: await startSage({
        env: { ...env, SAGE_DATABASE_URL: databaseUrl, SAGE_SECRET_KEY: BENCH_SECRET_KEY, SAGE_FILES_DIR: files },
        label: "search-pg",
      }),
    };
    servers.push(...Object.values(engines));
    const once = {};
    let readyMs = 0;
    for (const [name, sage] of Object.entries(engines)) {
      const cookie = await sage.login();
      once[name] = (query) => postJson(`${sage.url}/api/search`, cookie, { query, limit: 5 });
      const started = performance.now();
      await waitForVectorIndex(once[name]);
      if (name === "postgres") readyMs = performance.now() - started;
      for (const query of queries) await once[name](query);
    }
    const timed = { sqlite: [], postgres: [] };
    for (let round = 0; round < rounds; round++)
      for (const [index, query] of queries.entries())
        for (const name of (index + round) % 2 ? ["sqlite", "postgres"] : ["postgres", "sqlite"]) {
          const started = performance.now();
          await once[name](query);
          timed[name].push(performance.now() - started);
        }
    return {
      sqliteP95: percentile(timed.sqlite, 95),
      postgresP50: percentile(timed.postgres, 50),
      postgresP95: percentile(timed.postgres, 95),
      postgresFirstSearchMs: readyMs,
    };
  } finally {
    for (const server of servers) await server.stop();
    await fake.close();
    rmSync(files, { recursive: true, force: true });
  }
}
