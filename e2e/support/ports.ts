/** Fixed ports: Playwright evaluates its config in every worker, so they must not be random. */
export const E2E_PORT = Number(process.env.SAGE_E2E_PORT ?? 47811);
export const FAKE_GEMINI_PORT = Number(process.env.SAGE_E2E_FAKE_GEMINI_PORT ?? 47812);
export const FAKE_GEMINI_ORIGIN = `http://127.0.0.1:${FAKE_GEMINI_PORT}`;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
