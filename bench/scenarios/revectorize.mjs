import { figure } from "../lib/figure.mjs";
import { startFakeEmbedderProcess } from "../lib/fake-embedder.mjs";
import { jobDurationMs } from "../lib/ingest.mjs";
import { seedChunks } from "../lib/seed-chunks.mjs";
import { startSage } from "../lib/server.mjs";

const DELAY_MS = 100;
const GEMINI_MAX_BATCH = 100; // providers/embedder/gemini.ts maxBatch
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POST /api/vectors/revectorize over a store of N chunks with an embedder that takes exactly DELAY_MS per call
 * (the bench's fake Gemini): chunks/s from job start to done, beside the embedder-bound ideal of
 * ceil(N / batch) calls x DELAY_MS one after another.
 */
export async function revectorize({ quick }) {
  const chunks = quick ? 3000 : 10_000;
  // Seeded vectors: the corpus model took the fake 20-85 ms a call, so with the job's calls in flight together the
  // fake answered late and set the pace; this measures the server against an embedder that takes exactly DELAY_MS.
  const fake = await startFakeEmbedderProcess({ delayMs: DELAY_MS, seededVectors: true });
  const first = await startSage({ label: "revec", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" } });
  const dataDir = first.dataDir;
  await first.stop({ keepData: true });
  seedChunks(dataDir, { files: chunks / 20, chunksPerFile: 20 });
  const sage = await startSage({ dataDir, env: fake.envFor(768) });
  try {
    const cookie = await sage.login();
    const response = await fetch(`${sage.url}/api/vectors/revectorize`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: "{}",
    });
    if (!response.ok) throw new Error(`revectorize: ${response.status} ${await response.text()}`);
    for (const deadline = Date.now() + 600_000; ;) {
      const status = await (await fetch(`${sage.url}/api/vectors/status`, { headers: { cookie } })).json();
      if (status.job?.status === "done") break;
      if (status.job?.status === "failed" || Date.now() > deadline) throw new Error(`revectorize job: ${JSON.stringify(status.job)}`);
      await sleep(50);
    }
    const jobMs = jobDurationMs(dataDir, { kind: "vectors.revectorize" });
    const calls = Math.ceil(chunks / GEMINI_MAX_BATCH);
    const idealMs = calls * DELAY_MS;
    const embedderCalls = (await fake.calls()).filter((call) => call.texts > 1).length;
    return [
      figure({
        name: "revectorize.chunks_per_s",
        value: chunks / (jobMs / 1000),
        unit: "chunks/s",
        limit: chunks / (idealMs / 1000),
        better: "higher",
        target: ">= 0.8 of limit",
        params: {
          chunks,
          delayMs: DELAY_MS,
          batch: GEMINI_MAX_BATCH,
          dimensions: 768,
          jobMs,
          idealMs,
          embedderCalls,
          note: "limit = ceil(chunks / batch) x delay, calls one after another",
        },
      }),
    ];
  } finally {
    await sage.stop();
    await fake.close();
  }
}
