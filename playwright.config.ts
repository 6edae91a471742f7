import { defineConfig } from "@playwright/test";
import { BASE_URL, E2E_PORT, FAKE_GEMINI_ORIGIN } from "./e2e/support/ports.ts";

// Debian's Chromium, never a downloaded browser. These flags keep it quiet on a machine with no internet.
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-quic",
  "--no-first-run",
  "--disable-sync",
];

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  // One worker: the fake Gemini's reply queue is shared, and a 2-core machine runs one browser well.
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: [
    {
      command: "npx tsx e2e/support/start-fake-gemini.ts",
      url: `${FAKE_GEMINI_ORIGIN}/__fake/health`,
      reuseExistingServer: false,
      stdout: "ignore",
    },
    {
      command: "node e2e/support/start-server.mjs",
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(E2E_PORT),
        HOST: "127.0.0.1",
        SAGE_LOG_LEVEL: "warn",
        SAGE_LOGIN_RATE_LIMIT: "10000",
        GEMINI_API_KEY: "e2e-fake-key",
        GEMINI_BASE_URL: `${FAKE_GEMINI_ORIGIN}/v1beta`,
        SAGE_EMBEDDER: "gemini",
        SAGE_FETCH_ALLOW_PRIVATE: "true",
      },
    },
  ],
});
