import { spawn } from "node:child_process";
import { figure, percentile } from "../lib/figure.mjs";
import { seedChunks } from "../lib/seed-chunks.mjs";
import { memoryOf, startSage, waitFor } from "../lib/server.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function emptyNodeStartMs(port) {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ["-e", `require("http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`], { stdio: "ignore" });
  await waitFor(`http://127.0.0.1:${port}/`);
  const ms = performance.now() - startedAt;
  child.kill();
  await new Promise((resolve) => child.once("exit", resolve));
  return ms;
}

/** Time from spawn to a healthy /api/health on a 10k-chunk store, and idle RSS, beside an empty `node -e` server. */
export async function coldStart({ quick }) {
  const runs = quick ? 3 : 5;
  const first = await startSage({ label: "cold" });
  const dataDir = first.dataDir;
  await first.stop({ keepData: true });
  seedChunks(dataDir, { files: 500, chunksPerFile: 20 });

  const sageMs = [];
  const limitMs = [];
  let idle = null;
  for (let i = 0; i < runs; i++) {
    limitMs.push(await emptyNodeStartMs(48090 + i));
    const sage = await startSage({ dataDir });
    sageMs.push(sage.startMs);
    if (i === runs - 1) {
      // Idle after a login and a first request, as a user would leave it.
      const cookie = await sage.login();
      await fetch(`${sage.url}/api/auth/me`, { headers: { cookie } });
      await sleep(2000);
      idle = memoryOf(sage.pid);
    }
    await sage.stop({ keepData: true });
  }
  const params = { chunks: 10_000, runs };
  return [
    figure({
      name: "startup.cold_to_healthy",
      value: percentile(sageMs, 50),
      unit: "ms",
      limit: percentile(limitMs, 50),
      better: "lower",
      target: "<= 1500 ms",
      params,
    }),
    figure({ name: "startup.idle_rss", value: idle.rssMb, unit: "MB", better: "lower", target: "<= 150 MB", params }),
  ];
}
