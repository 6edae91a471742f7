import { startPostgres, type PostgresAddress } from "@sage/testkit/postgres-server";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server of the routes-postgres and system-postgres projects (vitest.config.ts). */
    testPostgres: PostgresAddress;
  }
}

/**
 * One PostgreSQL 15 server for a whole project's run, each test file's apps on fresh databases of it
 * (postgres-routes-setup.ts). A server per file cost initdb, start-up and shutdown every time: 1-2 s of both cores
 * on a quiet machine, 11-13 s under load, for each of about 80 files.
 */
export default async function setup(project: TestProject) {
  // Two workers, each with a few apps open at once (ten connections a pool).
  const server = await startPostgres({ maxConnections: 200 });
  project.provide("testPostgres", { host: server.host, port: server.port, user: server.user });
  return () => server.stop();
}
