import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The secret key a bench server on PostgreSQL needs (SAGE_SECRET_KEY): 32 bytes, base64. */
export const BENCH_SECRET_KEY = "c2FnZS1iZW5jaC1zZWNyZXQta2V5LTMyLWJ5dGVzISE=";
export const SERVER_ENTRY = path.join(ROOT, "apps/server/dist/main.js");

/** A port free right now (the machine is shared: fixed ports collide with other runs). */
export async function freePort() {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const makeDataDir = (label) => mkdtempSync(path.join(tmpdir(), `sage-bench-${label}-`));

/** Resident and peak memory of a process, from /proc (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

export async function waitFor(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Starts the built SAGE server in its own process (so load generators don't share its event loop). */
export async function startSage({ dataDir, env = {}, label = "sage", nodeArgs = [], entry = SERVER_ENTRY, healthyWithinMs = 30_000 } = {}) {
  const port = await freePort();
  const ownDir = !dataDir;
  dataDir ??= makeDataDir(label);
  const startedAt = performance.now();
  // SAGE_BENCH_SERVER_ARGS adds Node flags to the server alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const extraArgs = process.env.SAGE_BENCH_SERVER_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, ...extraArgs, entry], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SAGE_DATA_DIR: dataDir, SAGE_LOG_LEVEL: "warn", SAGE_LOGIN_RATE_LIMIT: "100000", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, healthyWithinMs);
  const startMs = performance.now() - startedAt;
  return {
    url,
    dataDir,
    pid: child.pid,
    startMs,
    async login(username = "demo", password = "sage-demo") {
      const response = await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username, password }),
      });
      if (!response.ok) throw new Error(`login failed: ${response.status}`);
      return response.headers.get("set-cookie").split(";")[0];
    },
    async stop({ keepData = false } = {}) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      if (ownDir && !keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts a plain Node child running `script` with args; resolves once it prints its port. */
export async function startChild(script, args = [], { nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (data) => resolve(Number(String(data).trim())));
    child.once("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
