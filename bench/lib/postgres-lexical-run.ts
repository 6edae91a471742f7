import pg from "pg";
import { startPostgres } from "../../packages/testkit/src/postgres-server.ts";
import { copySqliteToPostgres } from "../../apps/server/src/store/postgres/copy-to-postgres.ts";
import { openPgLexicalIndex } from "../../apps/server/src/modules/retrieval/index/pg-lexical-index.ts";

/**
 * A SAGE installation (its data folder) copied into a PostgreSQL 15 started for the run, its chunks indexed for
 * PostgreSQL's lexical search: what an evaluation compares with the SQLite path.
 */
export async function postgresLexicalRun(dataDir: string) {
  const server = await startPostgres();
  const url = await server.createDatabase();
  await copySqliteToPostgres({ dataDir, url });
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const index = await openPgLexicalIndex(pool);
  const started = performance.now();
  await index.indexMissing();
  return {
    url,
    index,
    indexMs: performance.now() - started,
    async stop() {
      await pool.end();
      await server.stop();
    },
  };
}
