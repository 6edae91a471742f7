import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { postgresInstalled } from "./packages/testkit/src/postgres-server.ts";
import { preferRamTemp } from "./packages/testkit/src/ram-temp.ts";
import server from "./apps/server/vitest.config.ts";

preferRamTemp();

/**
 * Three kinds of test (web's tests are a project of their own, on web's own Vite config):
 * - unit: one function or class at a time, in-process, milliseconds each;
 * - routes: the whole app over HTTP (createTestApp), seconds per file;
 * - system: what starts processes or threads, reads scans, unpacks bombs, crashes and restarts, or runs under load.
 * Unit and route tests run in one project, `server` (on SQLite; the routes listed below also in `routes-postgres`):
 * one set of workers imports the modules both use once (decision 112). `npm run test:fast` runs server and web;
 * `npm test` runs every project.
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
  "**/password-cost.test.ts", // argon2id at production's cost: seconds of CPU a hash on a busy machine
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
 * Tests that also run on PostgreSQL (decision 060, amended 2026-12-06): only the files whose code reaches the store
 * differently there. The repositories' own cases run on both engines (decision 058), so a file whose routes only
 * call such repositories, or refuse a request before the store, runs on SQLite alone. A new file runs on SQLite
 * alone until it is listed here; list it when its routes reach anything below.
 */
const ON_POSTGRES = (group: Record<string, string[]>) =>
  Object.values(group)
    .flat()
    .map((file) => `apps/server/src/${file}`);
const ROUTES_ON_POSTGRES = ON_POSTGRES({
  // The search index and the knowledge listing and tree: each engine has its own SQL (pg-search-index.ts, knowledge-listing.ts).
  search: [
    "modules/knowledge/knowledge.routes.test.ts",
    "modules/knowledge/item-texts.test.ts",
    "modules/knowledge/list-files.test.ts",
    "modules/knowledge/file-shares.routes.test.ts",
    "modules/assistant/knowledge-file-tools.routes.test.ts",
    "modules/retrieval/answer-from-knowledge.test.ts",
    "modules/retrieval/background-vectorization.routes.test.ts",
    "modules/retrieval/hybrid-search.test.ts",
    "modules/retrieval/recommend.routes.test.ts",
    "modules/retrieval/search-languages.test.ts",
    "modules/retrieval/search-privacy.test.ts",
    "modules/retrieval/search.routes.test.ts",
    "modules/retrieval/vector-lifecycle.routes.test.ts",
  ],
  // Conversations: PostgreSQL's own message repository, and no lists or pages kept in memory when shared.
  conversations: [
    "modules/conversations/conversations.routes.test.ts",
    "modules/conversations/message-search.routes.test.ts",
    "modules/assistant/chat-turn.routes.test.ts",
    "modules/assistant/message-branches.routes.test.ts",
  ],
  // Approvals shared by every process through the database (shared-approvals.ts, LISTEN/NOTIFY).
  approvals: [
    "modules/assistant/untrusted-turn.routes.test.ts",
    "modules/assistant/history-taint.routes.test.ts",
    "modules/assistant/share-file.routes.test.ts",
    "modules/assistant/delete-file.routes.test.ts",
    "modules/channels/telegram-approvals.routes.test.ts",
    "modules/channels/slack-channel.routes.test.ts",
    "modules/channels/telegram-channel.routes.test.ts",
  ],
  // The shared job queue (leases, wake-ups), scheduled runs' claims, and the sender filter's raw SQL.
  jobs: [
    "app.test.ts",
    "modules/schedules/schedules.routes.test.ts",
    "modules/schedules/schedule-task.routes.test.ts",
    "modules/schedules/schedule-triggers.routes.test.ts",
    "modules/schedules/morning-briefing.routes.test.ts",
    "modules/schedules/weekly-review.routes.test.ts",
    "modules/commitments/commitments.routes.test.ts",
    "modules/push/push.routes.test.ts",
    "modules/accounts/accounts.routes.test.ts",
  ],
  // Sessions checked in the database at every request, login attempts and a token refresh claimed in raw SQL.
  sessions: ["modules/auth/auth.routes.test.ts", "modules/sign-in/sign-in.routes.test.ts"],
  // Backups: each engine writes the restored rows its own way (knowledge-backup-rows.ts).
  backup: ["modules/backup/backup.routes.test.ts"],
  // Raw SQL (LIKE filters, lengths) in the dossiers' queries.
  rawSql: ["modules/dossiers/dossiers.routes.test.ts", "modules/dossiers/meeting-notes-commitments.routes.test.ts"],
});
const SYSTEM_ON_POSTGRES = ON_POSTGRES({
  // Uploads, archives and written documents: read into the search index by the job queue.
  uploads: [
    "modules/knowledge/ingestion.routes.test.ts",
    "modules/knowledge/item-text.routes.test.ts",
    "modules/knowledge/upload-types.routes.test.ts",
    "modules/knowledge/ways-in.routes.test.ts",
    "modules/assistant/attachments-turn.routes.test.ts",
    "modules/assistant/research.integration.test.ts",
    "modules/documents-out/create-document.routes.test.ts",
    "modules/documents-out/document-drafts.routes.test.ts",
    "modules/retrieval/local-embedder.integration.test.ts",
    "reliability/compressible-archives.test.ts",
    "reliability/hostile-archives.test.ts",
    "reliability/hostile-uploads.test.ts",
    "reliability/hostile-requests.test.ts",
    "reliability/invisible-names.test.ts",
  ],
  // Backup and restore: each engine's own writes and rollback.
  backup: [
    "modules/accounts/accounts-backup.integration.test.ts",
    "reliability/backup-import-responsive.test.ts",
    "reliability/backup-round-trip.test.ts",
    "reliability/restore-rollback.test.ts",
  ],
  // Approvals shared through the database.
  approvals: [
    "modules/external-tools/external-tools.routes.test.ts",
    "modules/external-tools/everything-server.integration.test.ts",
    "modules/assistant/send-email.integration.test.ts",
    "modules/assistant/move-mail.integration.test.ts",
    "modules/assistant/calendar-tools.integration.test.ts",
    "modules/channels/email-channel.integration.test.ts",
    "modules/schedules/scheduled-approval.integration.test.ts",
    "modules/accounts/sender-address.integration.test.ts",
  ],
  // Sync and sorting jobs on the shared queue, schedule claims, and raw SQL (LIKE filters on mail and people).
  jobs: [
    "modules/accounts/mail-sync.integration.test.ts",
    "modules/accounts/calendar-sync.integration.test.ts",
    "modules/people/people.integration.test.ts",
    "modules/triage/triage.integration.test.ts",
    "modules/schedules/schedule-triggers.integration.test.ts",
  ],
  // Sessions, every user's scoping in each engine's queries, and hostile values that reach the store (PostgreSQL refuses a NUL in text).
  store: ["reliability/session-hardening.test.ts", "reliability/other-users.test.ts", "reliability/route-fuzz.test.ts"],
});
/**
 * Files that build the app but run on SQLite alone, each group with its reason. Every file that builds the app is in
 * one list or the other: a new one fails every Vitest run until its author decides (decision 110).
 */
const SQLITE_ALONE = ON_POSTGRES({
  // HTTP itself, or refused before the store: contracts, the web app, the Gemini-compatible proxy, outgoing fetches.
  http: [
    "http/route-contracts.routes.test.ts",
    "http/web-app.test.ts",
    "modules/assistant/gemini-compat/gemini-compat.routes.test.ts",
    "modules/assistant/gemini-compat/gemini-compat-stream-abort.test.ts",
    "reliability/dns-rebinding.test.ts",
    "reliability/outgoing-fetch-guard.test.ts",
    "reliability/slow-clients.test.ts",
    "reliability/non-json-bodies.test.ts",
  ],
  // Routes that only call repositories whose own cases run on both engines (decision 058).
  repositories: [
    "password-cost.test.ts",
    "modules/assistant/assistant.routes.test.ts",
    "modules/memory/memory.routes.test.ts",
    "modules/assistant/memory-turn.routes.test.ts",
    "modules/reminders/reminders.routes.test.ts",
    "modules/calendar-feed/calendar-feed.routes.test.ts",
    "modules/external-tools/tool-servers.routes.test.ts",
    "modules/triage/triage-stored-off.routes.test.ts",
    "modules/documents-out/conversation-export.routes.test.ts",
    "modules/assistant/draft-email.integration.test.ts",
    "modules/channels/telegram-files.integration.test.ts",
  ],
  // Sign-in protocols against their servers (OAuth, OpenID Connect, MCP's); the tokens go through shared repositories.
  signIn: [
    "modules/accounts/sign-in-mail.integration.test.ts",
    "modules/accounts/sign-in-calendars.integration.test.ts",
    "modules/external-tools/remote-sign-in.integration.test.ts",
  ],
  // Files that start PostgreSQL themselves and test both engines inside.
  bothInside: [
    "app-postgres.integration.test.ts",
    "migrate-round-trip.integration.test.ts",
    "store/postgres/copy-to-postgres.integration.test.ts",
    "cli.test.ts",
  ],
});
// A listed file that moved would silently stop running on PostgreSQL.
for (const file of [...ROUTES_ON_POSTGRES, ...SYSTEM_ON_POSTGRES, ...SQLITE_ALONE]) {
  if (!existsSync(fileURLToPath(new URL(file, import.meta.url)))) throw new Error(`vitest.config.ts lists ${file}, but it does not exist`);
}
// A new file that builds the app would otherwise run on SQLite alone without anyone deciding so.
const decided = new Set([...ROUTES_ON_POSTGRES, ...SYSTEM_ON_POSTGRES, ...SQLITE_ALONE]);
const undecided = ROUTES.filter((file) => !decided.has(file));
if (undecided.length > 0) {
  throw new Error(
    `${undecided.join(", ")} build${undecided.length === 1 ? "s" : ""} the app: list each in vitest.config.ts, to run on PostgreSQL too or on SQLite alone with its reason (decision 060).`,
  );
}

const exclude = (...patterns: string[][]) => [...configDefaults.exclude, ...patterns.flat()];
// Server tests share a worker's module cache across files (no re-import of Fastify, the AI SDK and the store per
// file): 110 s to 44 s for `test:fast` on two cores. Tests that stub globals restore them (unstubGlobals).
const nodeProject = { ...server.test, isolate: false, unstubGlobals: true, unstubEnvs: true };
/**
 * System tests share a worker's modules too (decision 111: their imports were 290 s of CI's worker time), but for the
 * files that replace a module (vi.mock) or set the environment what they import reads: each keeps its own graph.
 */
const ISOLATED = [
  "apps/server/src/reliability/outgoing-fetch-guard.test.ts", // mocks node:dns
  "apps/server/src/reliability/restore-rollback.test.ts", // mocks the restore step to fail midway
];
for (const file of ISOLATED) {
  if (!existsSync(fileURLToPath(new URL(file, import.meta.url)))) throw new Error(`vitest.config.ts lists ${file}, but it does not exist`);
}
const ISOLATED_ON_POSTGRES = ISOLATED.filter((file) => SYSTEM_ON_POSTGRES.includes(file));

export default defineConfig({
  test: {
    // Both cores: Vitest's default leaves one free, which on a two-core machine means one test file at a time.
    maxWorkers: 2,
    // Transformed modules kept in node_modules/.experimental-vitest-cache between runs (keyed by each file's content,
    // dropped when dependencies are reinstalled): a repeated `npm run test:fast` skips most of its transforms.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          ...nodeProject,
          name: "server",
          include: ["apps/server/src/**/*.test.ts", "packages/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: exclude(SYSTEM),
        },
      },
      // Without Debian's postgresql package (a developer's machine) the project is left out; CI installs it.
      ...(postgresInstalled()
        ? [
            {
              test: {
                ...nodeProject,
                name: "routes-postgres",
                include: ROUTES_ON_POSTGRES,
                env: { SAGE_TEST_ON_POSTGRES: "1" },
                globalSetup: ["apps/server/src/test/postgres-global-setup.ts"],
                setupFiles: ["apps/server/src/test/postgres-routes-setup.ts"],
              },
            },
            {
              test: {
                ...nodeProject,
                name: "system-postgres",
                include: SYSTEM_ON_POSTGRES,
                exclude: exclude(ISOLATED),
                env: { SAGE_TEST_ON_POSTGRES: "1" },
                globalSetup: ["apps/server/src/test/postgres-global-setup.ts"],
                setupFiles: ["apps/server/src/test/postgres-routes-setup.ts"],
              },
            },
            {
              test: {
                ...nodeProject,
                isolate: true,
                name: "system-postgres-isolated",
                include: ISOLATED_ON_POSTGRES,
                env: { SAGE_TEST_ON_POSTGRES: "1" },
                globalSetup: ["apps/server/src/test/postgres-global-setup.ts"],
                setupFiles: ["apps/server/src/test/postgres-routes-setup.ts"],
              },
            },
          ]
        : []),
      { test: { ...nodeProject, name: "system", include: SYSTEM, exclude: exclude(ISOLATED) } },
      { test: { ...nodeProject, isolate: true, name: "system-isolated", include: ISOLATED } },
      "apps/web/vitest.config.ts",
    ],
  },
});
