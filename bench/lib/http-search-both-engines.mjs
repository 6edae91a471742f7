import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { percentile } from "./figure.mjs";
import { startFakeEmbedder } from "./fake-embedder.mjs";
import { ROOT, startSage } from "./server.mjs";
import { buildMissingIndexes, waitForVectorIndex } from "./vector-index-ready.mjs";

// undici's request() over a keep-alive pool, as search.mjs times its HTTP searches.
const { request } = createRequire(path.join(ROOT, "apps/server/package.json"))("undici");
const SECRET_KEY = "c2FnZS1iZW5jaC1zZWNyZXQta2V5LTMyLWJ5dGVzISE="; // 32 bytes, base64
const DIMENSIONS = 768;

async function searchOn(sage, cookie, query) {
  const response = await request(`${sage.url}/api/search`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ query, limit: 5 }),
  });
  if (response.statusCode !== 200) throw new Error(`${sage.url}/api/search: ${response.statusCode} ${await response.body.text()}`);
  return response.body.json();
}

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
      postgres: await startSage({ env: { ...env, SAGE_DATABASE_URL: databaseUrl, SAGE_SECRET_KEY: SECRET_KEY, SAGE_FILES_DIR: files }, label: "search-pg" }),
    };
    servers.push(...Object.values(engines));
    const once = {};
    let readyMs = 0;
    for (const [name, sage] of Object.entries(engines)) {
      const cookie = await sage.login();
      once[name] = (query) => searchOn(sage, cookie, query);
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
