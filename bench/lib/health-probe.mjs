import { fork } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./server.mjs";

const { request } = createRequire(path.join(ROOT, "apps/server/package.json"))("undici");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * GET /api/health one after another, `everyMs` apart, until `until()` is true; the latency of each in ms. With
 * `failures` given, a non-200 answer or a refused connection is recorded there (its latency still counted)
 * instead of thrown.
 */
export async function pingHealth(url, until, everyMs = 10, failures = null) {
  const latencies = [];
  while (!until()) {
    const startedAt = performance.now();
    try {
      const response = await request(`${url}/api/health`);
      await response.body.dump();
      if (response.statusCode !== 200) throw Object.assign(new Error(`/api/health answered ${response.statusCode}`), { status: response.statusCode });
    } catch (error) {
      if (!failures) throw error;
      failures.push(error.status ?? String(error.code ?? error.message));
    }
    latencies.push(performance.now() - startedAt);
    await sleep(everyMs);
  }
  return latencies;
}

/**
 * The same pinger in a process of its own, so the bench's own work (uploading a 100 MB file, answering as the
 * fake embedder, polling a job) never delays a ping's answer and is counted as the server's. `stop()` answers
 * `{ latencies, failures }`.
 */
export function startHealthProbe(url, everyMs = 10) {
  const child = fork(fileURLToPath(new URL("./health-probe-child.mjs", import.meta.url)), [url, String(everyMs)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const answer = new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the health probe exited ${code} before answering`)));
  });
  answer.catch(() => undefined);
  return {
    async stop() {
      child.send("stop");
      return answer;
    },
  };
}

/** Probes in a child process for as long as `work` runs; answers `{ result, latencies, failures }`. */
export async function probeHealthDuring(url, work, everyMs = 10) {
  const probe = startHealthProbe(url, everyMs);
  const [outcome] = await Promise.allSettled([work()]);
  const measured = await probe.stop();
  if (outcome.status === "rejected") throw outcome.reason;
  return { result: outcome.value, ...measured };
}
