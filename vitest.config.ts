import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { postgresInstalled } from "./packages/testkit/src/postgres-server.ts";
import server from "./apps/server/vitest.config.ts";

/**
 * Three kinds of test, run as three projects (web's unit tests are a fourth, on web's own Vite config):
 * - unit: one function or class at a time, in-process, milliseconds each;
 * - routes: the whole app over HTTP (createTestApp), seconds per file;
 * - system: what starts processes or threads, reads scans, unpacks bombs, crashes and restarts, or runs under load.
 * `npm run test:fast` runs unit, web and routes; `npm test` runs all four.
 */

/** System tests, by file name (so they stay system tests wherever their folder moves). */
const SYSTEM = [
  "apps/server/src/reliability/**/*.test.ts",
  // Document readers: conversion processes, PDF workers, OCR, and the routes that send every type through them.
  "**/conversion-pool.test.ts",
  "**/converters.test.ts",
  "**/convert-pdf.test.ts",
  "**/convert-image.test.ts",
  "**/encrypted-files.test.ts",
  "**/pdf-right-to-left.test.ts",
  "**/ocr-offline.test.ts",
  "**/ingestion.routes.test.ts",
  "**/upload-types.routes.test.ts",
  "**/item-text.routes.test.ts",
  "**/attachments-turn.routes.test.ts",
  "**/ways-in.routes.test.ts",
  // Documents SAGE writes: each in a writer thread; created ones are then read like uploads, in conversion processes.
  "**/create-document.routes.test.ts",
  "**/document-drafts.routes.test.ts",
  "**/conversation-export.routes.test.ts",
  "**/write-in-thread.test.ts",
  "**/write-document.test.ts", // loads the four writers and three readers: seconds, not milliseconds
  // Processes and threads: the server, the admin CLI, MCP tool servers, the embedder's thread, a local model.
  "**/startup-line.test.ts",
  "**/cli.test.ts",
  "**/external-tools.routes.test.ts",
  "**/embedder-in-thread.test.ts",
  "**/vector-merge.test.ts", // merges vector graphs in a worker thread
  "**/expand-calendar.test.ts", // ical.js in its reader thread
  "**/*.integration.test.ts", // real servers: Dovecot for mail, local models
  // ESLint itself, on probes of each house rule.
  "scripts/lint-self-check.test.ts",
];

/** Route tests: every other server test that builds the whole app (test/test-app.ts, or createApp itself). */
const buildsTheApp = /\/test\/test-app\.ts"|\bcreateApp\(/;
const serverSource = fileURLToPath(new URL("apps/server/src/", import.meta.url));
const ROUTES = readdirSync(serverSource, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts") && buildsTheApp.test(readFileSync(serverSource + file, "utf8")))
  .map((file) => `apps/server/src/${file}`);

/**
 * Route tests that also run on PostgreSQL (decision 060): every route test that reaches the store only through the
 * app (not SQLite's own connection, nor the helpers that write SQLite directly).
 */
const touchesSqlite = /\.sqlite\b|sage\.db/;
const ROUTES_ON_POSTGRES = ROUTES.filter((file) => {
  const text = readFileSync(fileURLToPath(new URL(file, import.meta.url)), "utf8");
  // Tests that start PostgreSQL themselves already run there; those that start server processes start them on SQLite.
  // A file that reaches SQLite for an engine-specific test says so by skipping it on SAGE_TEST_ON_POSTGRES.
  return (!touchesSqlite.test(text) || /SAGE_TEST_ON_POSTGRES/.test(text)) && !/startPostgres|startServerProcess/.test(text);
});
/** Every other server test: what the PostgreSQL system project leaves out of SYSTEM's patterns. */
const NOT_ON_POSTGRES = readdirSync(serverSource, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => `apps/server/src/${file}`)
  .filter((file) => !ROUTES_ON_POSTGRES.includes(file));

const exclude = (...patterns: string[][]) => [...configDefaults.exclude, ...patterns.flat()];
// unit and routes share a worker's module cache across files (no re-import of Fastify, the AI SDK and the store per
// file): 110 s to 44 s for `test:fast` on two cores. Tests that stub globals restore them (unstubGlobals).
const nodeProject = { ...server.test, isolate: false, unstubGlobals: true, unstubEnvs: true };

export default defineConfig({
  test: {
    // Both cores: Vitest's default leaves one free, which on a two-core machine means one test file at a time.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...nodeProject,
          name: "unit",
          include: ["apps/server/src/**/*.test.ts", "packages/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: exclude(SYSTEM, ROUTES),
        },
      },
      { test: { ...nodeProject, name: "routes", include: ROUTES, exclude: exclude(SYSTEM) } },
      // Without Debian's postgresql package (a developer's machine) the project is left out; CI installs it.
      ...(postgresInstalled()
        ? [
            {
              test: {
                ...nodeProject,
                name: "routes-postgres",
                include: ROUTES_ON_POSTGRES,
                env: { SAGE_TEST_ON_POSTGRES: "1" },
                exclude: exclude(SYSTEM),
                globalSetup: ["apps/server/src/test/postgres-global-setup.ts"],
                setupFiles: ["apps/server/src/test/postgres-routes-setup.ts"],
              },
            },
            {
              test: {
                ...nodeProject,
                isolate: true,
                name: "system-postgres",
                include: SYSTEM,
                env: { SAGE_TEST_ON_POSTGRES: "1" },
                exclude: exclude(NOT_ON_POSTGRES, ["packages/**", "scripts/**"]),
                globalSetup: ["apps/server/src/test/postgres-global-setup.ts"],
                setupFiles: ["apps/server/src/test/postgres-routes-setup.ts"],
              },
            },
          ]
        : []),
      // System tests start processes, crash, and change the environment: each file keeps its own module graph.
      { test: { ...nodeProject, isolate: true, name: "system", include: SYSTEM } },
      "apps/web/vitest.config.ts",
    ],
  },
});
