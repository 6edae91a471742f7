import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { figure } from "../lib/figure.mjs";
import { load } from "../lib/load.mjs";
import { BENCH_SECRET_KEY, ROOT, startSage } from "../lib/server.mjs";

const CONNECTIONS = 50;

/** Seeds what http-api.mjs seeds (100 conversations to list; 300 of 20 messages to append to) through one process. */
async function seed(sage, cookie) {
  const headers = { cookie, "content-type": "application/json" };
  const post = (url, body) => fetch(`${sage.url}${url}`, { method: "POST", headers, body: JSON.stringify(body) }).then((r) => r.json());
  for (let i = 0; i < 100; i++) await post("/api/conversations", { name: `Project ${i} planning notes` });
  const targets = [];
  for (let i = 0; i < 300; i++) {
    const conversation = await post("/api/conversations", { name: `Bench ${i}` });
    for (let m = 0; m < 20; m++)
      await post(`/api/conversations/${conversation.id}/messages`, {
        role: m % 2 ? "model" : "user",
        content: `Message ${m}: draft the quarterly update for the board, with figures.`,
      });
    targets.push(conversation.id);
  }
  return targets;
}

/** The list and append loads of http-api.mjs, spread over the given processes at once (the connections split). */
async function measure(processes, cookie, targets, durationSec) {
  const headers = { cookie, "content-type": "application/json" };
  const connections = CONNECTIONS / processes.length;
  const sum = (runs) => ({
    reqPerSec: runs.reduce((total, run) => total + run.reqPerSec, 0),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    errors: runs.reduce((total, run) => total + run.errors + run.non2xx, 0),
  });
  const list = sum(await Promise.all(processes.map((sage) => load({ url: `${sage.url}/api/conversations`, connections, durationSec, headers: { cookie } }))));
  const body = JSON.stringify({ role: "user", content: "Remind me to send the board pack on Friday." });
  let next = 0;
  const append = sum(
    await Promise.all(
      processes.map((sage) =>
        load({
          url: `${sage.url}/api/conversations/${targets[0]}/messages`,
          connections,
          durationSec,
          method: "POST",
          headers,
          body,
          setupRequest: (request) => ({ ...request, path: `/api/conversations/${targets[next++ % targets.length]}/messages` }),
        }),
      ),
    ),
  );
  return { list, append };
}

/**
 * The HTTP API on PostgreSQL beside SQLite (issue 34): http-api's list and append loads on one SAGE process over
 * SQLite (the limit), one over a PostgreSQL 15 started for the run, then two processes on that database loaded at
 * once (the limit: the one process). On this 2-core machine the two processes, PostgreSQL and the load generator share
 * the cores, so the second figure says what a second process costs or gains here, not on a server with cores to
 * spare. Needs Debian's postgresql package (skipped, saying so, without it).
 */
export async function httpPostgres({ quick }) {
  const { postgresInstalled, POSTGRES_MISSING, startPostgres } = await import(path.join(ROOT, "packages/testkit/src/postgres-server.ts"));
  if (!postgresInstalled()) {
    console.error(`# http-postgres: ${POSTGRES_MISSING}`);
    return [];
  }
  const durationSec = quick ? 3 : 10;
  const figures = [];
  const onSqlite = await startSage({ label: "http-sqlite" });
  let sqlite;
  try {
    const cookie = await onSqlite.login();
    sqlite = await measure([onSqlite], cookie, await seed(onSqlite, cookie), durationSec);
  } finally {
    await onSqlite.stop();
  }

  const server = await startPostgres();
  const files = mkdtempSync(path.join(tmpdir(), "sage-bench-files-"));
  const processes = [];
  try {
    const env = { SAGE_DATABASE_URL: await server.createDatabase(), SAGE_SECRET_KEY: BENCH_SECRET_KEY, SAGE_FILES_DIR: files };
    processes.push(await startSage({ label: "http-pg-a", env }));
    const cookie = await processes[0].login();
    const targets = await seed(processes[0], cookie);
    const one = await measure(processes, cookie, targets, durationSec);
    processes.push(await startSage({ label: "http-pg-b", env }));
    const two = await measure(processes, cookie, targets, durationSec);
    const params = { connections: CONNECTIONS, durationSec, conversations: 400, seededMessagesEach: 20 };
    figures.push(
      figure({
        name: "http.postgres.conversations.list.rps",
        value: one.list.reqPerSec,
        unit: "req/s",
        limit: sqlite.list.reqPerSec,
        target: "reported (limit: SQLite)",
        params: { ...params, p99Ms: one.list.p99Ms, errors: one.list.errors },
      }),
      figure({
        name: "http.postgres.messages.append.rps",
        value: one.append.reqPerSec,
        unit: "req/s",
        limit: sqlite.append.reqPerSec,
        target: "reported (limit: SQLite)",
        params: { ...params, p99Ms: one.append.p99Ms, errors: one.append.errors },
      }),
      figure({
        name: "http.postgres.two-processes.list.rps",
        value: two.list.reqPerSec,
        unit: "req/s",
        limit: one.list.reqPerSec,
        target: "reported (limit: one process)",
        params: { ...params, p99Ms: two.list.p99Ms, errors: two.list.errors },
      }),
      figure({
        name: "http.postgres.two-processes.append.rps",
        value: two.append.reqPerSec,
        unit: "req/s",
        limit: one.append.reqPerSec,
        target: "reported (limit: one process)",
        params: { ...params, p99Ms: two.append.p99Ms, errors: two.append.errors },
      }),
    );
  } finally {
    for (const sage of processes) await sage.stop();
    await server.stop();
    rmSync(files, { recursive: true, force: true });
  }
  return figures;
}
