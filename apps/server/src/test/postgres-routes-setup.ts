import { createDatabaseOn } from "@sage/testkit/postgres-server";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { testPostgres } from "./test-postgres.ts";

// The routes-postgres and system-postgres projects (vitest.config.ts): each route test file's apps on fresh databases
// (copies of one migrated template) of the project's one server (postgres-global-setup.ts), dropped when the file ends.
const server = inject("testPostgres");
const template = inject("testPostgresTemplate");
const made: string[] = [];
beforeAll(() => {
  testPostgres.server = {
    async createDatabase() {
      // A copy of the migrated template: the app opens it with nothing left to migrate.
      const url = await createDatabaseOn(server, undefined, template);
      made.push(new URL(url).pathname.slice(1));
      return url;
    },
  };
});
afterAll(() => {
  testPostgres.server = undefined;
  // In the background, while the next file runs: each DROP DATABASE waits for a checkpoint (about a second under
  // load). FORCE ends the sessions of an app the file left open, as the file's own server shutting down did. What is
  // not dropped when the run ends goes with the server's folder.
  if (made.length > 0) void dropDatabases(made.splice(0)).catch(() => undefined);
});

async function dropDatabases(names: string[]) {
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, database: "postgres" });
  client.on("error", () => undefined); // the server stopping at the end of the run under a drop still going
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
