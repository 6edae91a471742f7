import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { afterAll, describe, expect, it } from "vitest";
import { readWriteMix } from "@sage/testkit/load-mix";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { makeDocxBomb } from "./document-bombs.ts";
import { hostileRequestMix } from "./hostile-payloads.ts";
import { rawRequest } from "./raw-http.ts";
import { startServerProcess } from "./server-process.ts";

const GC_ON_SIGNAL = new URL("./gc-on-signal.ts", import.meta.url).href;

/**
 * 50 concurrent clients against the real server in a child process on 127.0.0.1, each cycling through a mixed
 * workload (list, open a conversation, save a message, search, recommend, reminders) while one large ingestion
 * runs in the background and two more clients send hostile requests (a .docx bomb, malformed and oversized forms,
 * clients that go away mid-upload, JSON nested 1,000 deep). Zero 5xx; every hostile request answered with its 4xx; every
 * acknowledged write stored; p99 recorded; the heap flat after warm-up. Two more clients create notes: every one
 * must be answered 200, and their p50 / p99 are reported beside the 250 ms limit (issue 35). About 12 s in
 * `npm test`, 60 s under `npm run test:soak` (SAGE_SOAK=1).
 */
const SOAK = process.env.SAGE_SOAK === "1";
const DURATION_S = SOAK ? 60 : 12;
const CONNECTIONS = 50;
/**
 * Memory is judged by the live JavaScript heap after a full collection (gc-on-signal.ts), just after warm-up and at
 * the end. RSS swings with V8's collections (the 60-second soak: 223 to 367 MB between them, flat floors), and a
 * 12-second run ends before the next one, so its RSS growth (34 to 67 MB in CI) measured garbage not yet collected.
 * The heap may grow this much (caches filling); a leak per request is more: 20,000 requests x 1 KB is 20 MB.
 */
const HEAP_TOLERANCE_MB = 20;
/** RSS, sampled every 0.5 s, stays under this (short runs peak at 250-350 MB, the soak at 410 MB). */
const RSS_CEILING_MB = 512;
/**
 * Creating a note in this mix (issue 35: p99 2,306 ms when a note waited for the job queue and a conversion process):
 * reported beside this limit; the bench's `notes.create_p99_under_load` holds it (speed targets live in benchmarks).
 */
const NOTE_P99_LIMIT_MS = 250;
const NOTE_CLIENTS = 2;
/**
 * The load must really happen: at least this many requests from the 50 clients and writes from the writer. A quiet
 * machine serves about 6,600 and 80 in 12 s; one busy with another test run served 283 and 7 (CI load 15), so the
 * run goes on past its time until these are reached instead of failing for the machine's speed.
 */
const MIN_REQUESTS = CONNECTIONS * 7;
const MIN_WRITES = 11;

const temp = makeTempDir();
afterAll(() => temp.remove());

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

describe("load", () => {
  it(`serves ${CONNECTIONS} concurrent clients for ${DURATION_S} s with no 5xx and flat memory`, async () => {
    const server = await startServerProcess(temp.dir, { SAGE_LOGIN_RATE_LIMIT: "100000" }, ["--expose-gc", "--import", GC_ON_SIGNAL]);
    /** The server's memory after a full collection, as gc-on-signal.ts reports it. */
    const collectedMemory = async () => {
      const readings = () => server.stderr().match(/^SAGE_MEMORY .*$/gm) ?? [];
      const before = readings().length;
      server.signal("SIGUSR2");
      for (const deadline = Date.now() + 60_000; readings().length === before && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const line = readings()[before];
      if (!line) throw new Error("the server did not report its memory after SIGUSR2");
      return JSON.parse(line.slice("SAGE_MEMORY ".length)) as { heapUsedMb: number; rssMb: number; externalMb: number; arrayBuffersMb: number };
    };
    const cookie = await server.login();
    const json = { cookie, "content-type": "application/json" };
    const post = (url: string, body: unknown) => fetch(`${server.url}${url}`, { method: "POST", headers: json, body: JSON.stringify(body) });
    const conversation = await (await post("/api/conversations", { name: "Load" })).json();
    for (let i = 0; i < 20; i++)
      await post(`/api/conversations/${conversation.id}/messages`, { role: "user", content: `Seed message ${i} about budgets and travel.` });
    for (let i = 0; i < 10; i++)
      await post("/api/process-note", { type: "note", content: `Note ${i}: the travel budget for the quarter covers trains, hotels and conference fees.` });
    await post("/api/reminders", { title: "Book trains", dueDate: new Date(Date.now() + 86_400_000).toISOString(), conversationId: conversation.id });
    // One ingestion running through the test: a 3 MB text upload becomes a background job.
    const form = new FormData();
    form.append(
      "file",
      new Blob([Array.from({ length: 30_000 }, (_, i) => `Paragraph ${i} about quarterly travel budgets and hotel costs.`).join("\n\n")]),
      "large.txt",
    );
    const upload = await fetch(`${server.url}/api/upload`, { method: "POST", headers: { cookie }, body: form });
    expect(upload.status).toBe(202);

    // Beside the 50 clients: one client sends every hostile request of issue 17 over and over (each must get its
    // 4xx, none may go unanswered), and one writer whose acknowledged messages must all be stored at the end.
    const port = Number(new URL(server.url).port);
    const hostile = { sent: 0, statuses: {} as Record<string, number>, unanswered: [] as string[], wrong: [] as string[] };
    const ledger = await (await post("/api/conversations", { name: "Ledger" })).json();
    const writes = { sent: 0, acknowledged: [] as string[] };
    let running = true;
    const mix = hostileRequestMix(cookie, await makeDocxBomb(300 * 1_048_576));
    // Two clients, half a mix apart; each sends at least one whole mix, even if the run ends first.
    const hostileClient = async (offset: number) => {
      for (let index = 0; running || index < mix.length; index++) {
        const request = mix[(index + offset) % mix.length]!;
        const reply = await rawRequest(port, request.bytes, { waitMs: 120_000, closeAfterWrite: request.disconnect });
        hostile.sent += 1;
        if (request.disconnect) continue;
        if (!reply.answered) hostile.unanswered.push(request.label);
        else hostile.statuses[reply.status] = (hostile.statuses[reply.status] ?? 0) + 1;
        if (reply.answered && !request.statuses?.includes(reply.status)) hostile.wrong.push(`${request.label}: ${reply.status} ${reply.body.slice(0, 200)}`);
      }
    };
    const hostileClients = [hostileClient(0), hostileClient(Math.floor(mix.length / 2))];
    const writer = (async () => {
      while (running || writes.sent < MIN_WRITES) {
        const content = `Ledger entry ${++writes.sent}`;
        const response = await post(`/api/conversations/${ledger.id}/messages`, { role: "user", content }).catch(() => null);
        if (response?.ok) writes.acknowledged.push(content);
        await response?.arrayBuffer();
      }
    })();

    // Beside them, clients that create notes as a user types them: each one's time, start to answer, is the figure.
    const notes = { latenciesMs: [] as number[], failed: [] as string[] };
    const noteClient = async (client: number) => {
      for (let i = 0; running; i++) {
        const startedAt = performance.now();
        const response = await post("/api/process-note", {
          type: "note",
          content: `Note ${client}-${i}: call Anna about the hotel budget for Lisbon.`,
        }).catch((error: Error) => ({ ok: false, status: 0, statusText: error.message, arrayBuffer: async () => undefined }));
        await response.arrayBuffer();
        if (!running) break;
        notes.latenciesMs.push(performance.now() - startedAt);
        if (!response.ok) notes.failed.push(`${response.status}`);
      }
    };
    const noteClients = Array.from({ length: NOTE_CLIENTS }, (_, client) => noteClient(client));

    const samples: { at: number; rss: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(server.pid) }), 500);
    const afterWarmUp = new Promise((resolve) => setTimeout(resolve, DURATION_S * 300)).then(collectedMemory);
    const load = (until: { duration: number } | { amount: number }) =>
      autocannon({
        url: server.url,
        connections: CONNECTIONS,
        headers: json,
        requests: readWriteMix(conversation.id),
        // autocannon counts a request unanswered in 10 s as an error; a busy machine is slower, not wrong.
        timeout: 120,
        ...until,
      });
    const timed = await load({ duration: DURATION_S });
    const more = timed.requests.total < MIN_REQUESTS ? await load({ amount: MIN_REQUESTS - timed.requests.total }) : null;
    const runs = more ? [timed, more] : [timed];
    clearInterval(sampler);
    const atEnd = await collectedMemory();
    running = false;
    await Promise.all([...hostileClients, writer, ...noteClients]);
    // The last re-upload of the bomb may still be queued behind the large ingestion: wait for its job to end.
    type ListedFile = { name: string; status: string; statusReason: string | null };
    const listFiles = async () => (await (await fetch(`${server.url}/api/files`, { headers: { cookie } })).json()) as ListedFile[];
    let files = await listFiles();
    for (
      const deadline = Date.now() + 300_000;
      files.some((file) => file.name === "board-minutes.docx" && ["queued", "processing"].includes(file.status)) && Date.now() < deadline;
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      files = await listFiles();
    }
    const stored = new Set(
      ((await (await fetch(`${server.url}/api/conversations/${ledger.id}/messages`, { headers: { cookie } })).json()) as Array<{ content: string }>).map(
        (message) => message.content,
      ),
    );
    const lost = writes.acknowledged.filter((content) => !stored.has(content));
    const bombs = files.filter((file) => file.name === "board-minutes.docx");
    await server.stop();

    const statuses: Record<string, number> = {};
    for (const run of runs)
      for (const [code, stats] of Object.entries(run.statusCodeStats ?? {})) statuses[code] = (statuses[code] ?? 0) + (stats as { count: number }).count;
    const sum = (of: (run: (typeof runs)[number]) => number) => runs.reduce((total, run) => total + of(run), 0);
    const result = {
      requests: sum((run) => run.requests.total),
      errors: sum((run) => run.errors),
      timeouts: sum((run) => run.timeouts),
      non2xx: sum((run) => run.non2xx),
    };
    const fiveHundreds = Object.entries(statuses)
      .filter(([code]) => Number(code) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    const collected = { afterWarmUp: await afterWarmUp, atEnd };
    const figures = {
      mode: SOAK ? "soak" : "short",
      durationSeconds: DURATION_S,
      connections: CONNECTIONS,
      requests: result.requests,
      requestsPerSecond: timed.requests.average,
      extraRequestsAfterTime: more?.requests.total ?? 0,
      statuses,
      errors: result.errors,
      timeouts: result.timeouts,
      latencyMs: { p50: timed.latency.p50, p90: timed.latency.p90, p99: timed.latency.p99, max: timed.latency.max },
      rssMb: {
        start: Math.round(samples[0]?.rss ?? NaN),
        max: Math.round(Math.max(...samples.map((sample) => sample.rss))),
        afterWarmUpCollected: Math.round(collected.afterWarmUp.rssMb),
        endCollected: Math.round(collected.atEnd.rssMb),
      },
      heapUsedMb: { afterWarmUpCollected: Math.round(collected.afterWarmUp.heapUsedMb), endCollected: Math.round(collected.atEnd.heapUsedMb) },
      ingestion: files.find((file: { name: string }) => file.name === "large.txt")?.status,
      hostile: { sent: hostile.sent, statuses: hostile.statuses, unanswered: hostile.unanswered.length, wrongAnswers: hostile.wrong.length },
      writes: { sent: writes.sent, acknowledged: writes.acknowledged.length, lost: lost.length },
      createNoteMs: {
        count: notes.latenciesMs.length,
        p50: Math.round(percentile(notes.latenciesMs, 50)),
        p99: Math.round(percentile(notes.latenciesMs, 99)),
        max: Math.round(Math.max(...notes.latenciesMs)),
        limitP99: NOTE_P99_LIMIT_MS,
        failed: notes.failed.length,
      },
      documentBombs: bombs.map((bomb) => `${bomb.status}: ${bomb.statusReason}`),
    };
    mkdirSync("reports", { recursive: true });
    writeFileSync(`reports/load-${figures.mode}.json`, JSON.stringify(figures, null, 2));
    console.log(`load: ${JSON.stringify(figures)}`);

    expect(fiveHundreds).toBe(0);
    expect(result.errors).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(hostile.unanswered).toEqual([]);
    expect(hostile.wrong).toEqual([]);
    expect(hostile.sent).toBeGreaterThanOrEqual(2 * mix.length);
    expect(lost).toEqual([]);
    // The bomb's item (re-uploaded over and over, the same bytes replace the failed one) failed with the reason.
    expect(bombs.map((bomb) => [bomb.status, bomb.statusReason])).toEqual([["failed", "The document is too large to process: it expands to more than 256 MB"]]);
    expect(writes.acknowledged.length).toBeGreaterThanOrEqual(MIN_WRITES);
    expect(notes.failed).toEqual([]);
    const { afterWarmUp: warm, atEnd: end } = collected;
    expect(Math.max(...samples.map((sample) => sample.rss))).toBeLessThan(RSS_CEILING_MB);
    expect(end.heapUsedMb - warm.heapUsedMb, `heap after warm-up ${warm.heapUsedMb} MB, at the end ${end.heapUsedMb} MB`).toBeLessThan(HEAP_TOLERANCE_MB);
  });
});
