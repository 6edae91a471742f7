import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres, type PostgresAddress } from "@sage/testkit/postgres-server";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { openAppStore } from "../store/open-app-store.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server of the routes-postgres and system-postgres projects (vitest.config.ts). */
    testPostgres: PostgresAddress;
    /** A database with every migration applied, which each app's database is copied from. */
    testPostgresTemplate: string;
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
  try {
    project.provide("testPostgres", { host: server.host, port: server.port, user: server.user });
    project.provide("testPostgresTemplate", await migratedTemplate(server, server.createDatabase));
  } catch (error) {
    await server.stop();
    throw error;
  }
  return () => server.stop();
}

/**
 * Migrates one database for the run, closed again so it can be copied: each app then opens a copy with nothing left
 * to migrate. Migrating each app's empty database cost about 1.5 s (under load), for every app of about 80 files.
 */
async function migratedTemplate(server: PostgresAddress, createDatabase: (name: string) => Promise<string>): Promise<string> {
  const name = "sage_migrated";
  const databaseUrl = await createDatabase(name);
  const dir = mkdtempSync(path.join(os.tmpdir(), "sage-template-"));
  try {
    const store = await openAppStore({ dataDir: dir, uploadsDir: path.join(dir, "uploads"), databaseUrl });
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A pool's end() resolves before its sessions have left, and a template with a session cannot be copied.
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, database: "postgres" });
  await client.connect();
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
      if (rows[0]!.n === 0) break;
      if (Date.now() > deadline) throw new Error(`the template database ${name} still has ${rows[0]!.n} sessions after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
  return name;
}
