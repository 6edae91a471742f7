import autocannon from "autocannon";
import { readWriteMix } from "@sage/testkit/load-mix";
import { startFakeEmbedder } from "../lib/fake-embedder.mjs";
import { figure, percentile, round } from "../lib/figure.mjs";
import { startSage } from "../lib/server.mjs";
import { notesText } from "./ingest-txt.mjs";

/** The soak's create-note limit (issue 35: p99 2,306 ms when each note waited for the job queue and a conversion process). */
const NOTE_P99_LIMIT_MS = 250;

/** Creates notes one after another until `running()` is false; answers each one's time, start to answer. */
async function createNotes(sage, cookie, client, running) {
  const latencies = [];
  for (let i = 0; running(); i++) {
    const startedAt = performance.now();
    const response = await fetch(`${sage.url}/api/process-note`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ type: "note", content: `Note ${client}-${i}: call Anna about the hotel budget for Lisbon.` }),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`create-note answered ${response.status}`);
    latencies.push(performance.now() - startedAt);
  }
  return latencies;
}

/**
 * create-note's p99 in the soak's mix (testkit's readWriteMix): 50 clients reading and writing
 * while a large text file ingests, and two clients creating notes; with an embedder answering at once (the bench's
 * fake). The same two note clients on the idle server just before are in `params`.
 */
export async function notesUnderLoad({ quick }) {
  const durationSec = quick ? 10 : 30;
  const fake = await startFakeEmbedder({ delayMs: 0 });
  const sage = await startSage({ label: "notes", env: { ...fake.envFor(384), SAGE_LOGIN_RATE_LIMIT: "100000" } });
  try {
    const cookie = await sage.login();
    const json = { cookie, "content-type": "application/json" };
    const post = async (url, body) => (await fetch(`${sage.url}${url}`, { method: "POST", headers: json, body: JSON.stringify(body) })).json();
    const conversation = await post("/api/conversations", { name: "Load" });
    for (let i = 0; i < 10; i++) await post("/api/process-note", { type: "note", content: `Seed note ${i} on travel budgets, trains and hotels.` });

    let idleRunning = true;
    const idleRun = Promise.all([0, 1].map((client) => createNotes(sage, cookie, `idle${client}`, () => idleRunning)));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    idleRunning = false;
    const idle = (await idleRun).flat();

    const form = new FormData();
    form.append("file", new Blob([notesText(quick ? 2 * 2 ** 20 : 3 * 2 ** 20, 20)]), "large.txt");
    const upload = await fetch(`${sage.url}/api/upload`, { method: "POST", headers: { cookie }, body: form });
    await upload.arrayBuffer();

    let running = true;
    const notes = Promise.all([0, 1].map((client) => createNotes(sage, cookie, client, () => running)));
    const mix = await autocannon({ url: sage.url, connections: 50, duration: durationSec, headers: json, requests: readWriteMix(conversation.id) });
    running = false;
    const during = (await notes).flat();
    return [
      figure({
        name: "notes.create_p99_under_load",
        value: percentile(during, 99),
        unit: "ms",
        limit: NOTE_P99_LIMIT_MS,
        better: "lower",
        target: `<= ${NOTE_P99_LIMIT_MS} ms`,
        params: {
          notes: during.length,
          p50Ms: round(percentile(during, 50), 1),
          maxMs: round(Math.max(...during), 1),
          idleP50Ms: round(percentile(idle, 50), 1),
          idleP99Ms: round(percentile(idle, 99), 1),
          mixRequests: mix.requests.total,
          mixP99Ms: mix.latency.p99,
          mixNon2xx: mix.non2xx,
          connections: 50,
          durationSec,
          embedder: "bench fake, 384 dims, no delay",
        },
      }),
    ];
  } finally {
    await sage.stop();
    await fake.close();
  }
}
