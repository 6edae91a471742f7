import { startPostgres } from "@sage/testkit/postgres-server";
import { afterAll, beforeAll } from "vitest";
import { testPostgres } from "./test-postgres.ts";

// The routes-postgres project (vitest.config.ts): each route test file on a PostgreSQL 15 of its own.
beforeAll(async () => {
  testPostgres.server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await testPostgres.server?.stop();
  testPostgres.server = undefined;
});
