import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./server.mjs";

const { request } = createRequire(path.join(ROOT, "apps/server/package.json"))("undici");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET /api/health one after another, `everyMs` apart, until `until()` is true; the latency of each in ms. */
export async function pingHealth(url, until, everyMs = 10) {
  const latencies = [];
  while (!until()) {
    const startedAt = performance.now();
    const response = await request(`${url}/api/health`);
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`/api/health answered ${response.statusCode}`);
    latencies.push(performance.now() - startedAt);
    await sleep(everyMs);
  }
  return latencies;
}
