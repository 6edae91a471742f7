import { execFileSync } from "node:child_process";

/**
 * Each Playwright worker has its own SAGE server (with its own data dir) and its own fake Gemini, so tests running
 * side by side never share a reply queue: playwright.config.ts starts one pair per worker, worker n's SAGE on the base
 * port + 3n and its fake Gemini on the next one. The third port is where that SAGE reaches Telegram
 * (SAGE_TELEGRAM_API_ROOT): a test that needs Telegram starts the emulator there, one test at a time per worker.
 *
 * Playwright evaluates the config in the runner and again in every worker, so the ports cannot be drawn at random in
 * each. The runner finds a free block once and puts it in the environment its workers and web servers inherit; a
 * fixed block failed CI when another run on the same machine held it.
 */
const WORKER_SLOTS = Math.max(8, Number(process.env.SAGE_E2E_WORKERS ?? 2));
const PORTS_PER_WORKER = 3;

/** The first port of PORTS_PER_WORKER * WORKER_SLOTS consecutive loopback ports that are free now. */
function freePortBlock(): number {
  const probe = `
    const net = require("node:net");
    const size = ${PORTS_PER_WORKER * WORKER_SLOTS};
    const listen = (port) => new Promise((ok, fail) => {
      const s = net.createServer().once("error", fail).listen(port, "127.0.0.1", () => ok(s));
    });
    (async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const base = 20000 + Math.floor(Math.random() * 40000);
        const held = [];
        try {
          for (let p = base; p < base + size; p++) held.push(await listen(p));
          held.forEach((s) => s.close());
          process.stdout.write(String(base));
          return;
        } catch {
          held.forEach((s) => s.close());
        }
      }
      process.exit(1);
    })();`;
  return Number(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }));
}

if (!process.env.SAGE_E2E_PORT) process.env.SAGE_E2E_PORT = String(freePortBlock());
const BASE_PORT = Number(process.env.SAGE_E2E_PORT);

/** The ports of worker n's SAGE server, its fake Gemini, and the Telegram emulator its tests start. */
export const workerPorts = (worker: number) => ({
  sage: BASE_PORT + PORTS_PER_WORKER * worker,
  fakeGemini: BASE_PORT + PORTS_PER_WORKER * worker + 1,
  telegram: BASE_PORT + PORTS_PER_WORKER * worker + 2,
});

// Set by Playwright in each worker before it loads the config and the tests (0 in the runner itself).
const { sage, fakeGemini, telegram } = workerPorts(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const E2E_PORT = sage;
export const FAKE_GEMINI_PORT = fakeGemini;
export const FAKE_GEMINI_ORIGIN = `http://127.0.0.1:${FAKE_GEMINI_PORT}`;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Where this worker's SAGE reaches Telegram: a test starts the emulator on it (startTelegramServer({ port })). */
export const TELEGRAM_PORT = telegram;
