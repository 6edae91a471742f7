/**
 * Fixed ports: Playwright evaluates its config in every worker, so they must not be random. Each worker has its own
 * SAGE server (with its own data dir) and its own fake Gemini, so tests running side by side never share a reply
 * queue: playwright.config.ts starts one pair per worker, worker n on the base ports + 2n.
 */
const BASE_PORT = Number(process.env.SAGE_E2E_PORT ?? 47811);
const BASE_FAKE_GEMINI_PORT = Number(process.env.SAGE_E2E_FAKE_GEMINI_PORT ?? 47812);

/** The ports of worker n's SAGE server and fake Gemini. */
export const workerPorts = (worker: number) => ({ sage: BASE_PORT + 2 * worker, fakeGemini: BASE_FAKE_GEMINI_PORT + 2 * worker });

// Set by Playwright in each worker before it loads the config and the tests (0 in the runner itself).
const { sage, fakeGemini } = workerPorts(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const E2E_PORT = sage;
export const FAKE_GEMINI_PORT = fakeGemini;
export const FAKE_GEMINI_ORIGIN = `http://127.0.0.1:${FAKE_GEMINI_PORT}`;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
