import type { PostgresServer } from "@sage/testkit/postgres-server";

/**
 * The PostgreSQL server the routes-postgres project runs route tests on (postgres-routes-setup.ts sets it for each
 * test file): while it is set, createTestApp builds each app on a fresh database of it instead of SQLite.
 */
export const testPostgres: { server?: Pick<PostgresServer, "createDatabase"> } = {};
