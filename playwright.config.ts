import { defineConfig } from "@playwright/test";
import { BASE_URL, workerPorts } from "./e2e/support/ports.ts";
import { preferRamTemp } from "./packages/testkit/src/ram-temp.ts";

preferRamTemp();

/** The features Playwright (1.65) switches off itself (chromiumSwitches.ts), kept when this config adds its own. */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];

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
  // Halves what each fresh context costs (1.35 -> 0.7 CPU-seconds on this machine; decision 039): full Chromium's
  // headless mode builds a window with the omnibox's WebUI popups and spare site-isolated renderers for every
  // context. Chromium keeps only the last --disable-features, so Playwright's own list is repeated here.
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"].join(",")}`,
  "--disable-site-isolation-trials",
];

// Two workers on a two-core machine: a browser test waits on the server and the browser more than it computes. Each
// worker has its own SAGE server and fake Gemini (e2e/support/ports.ts), so their data and scripted replies never mix.
const WORKERS = Number(process.env.SAGE_E2E_WORKERS ?? 2);
const servers = Array.from({ length: WORKERS }, (_, worker) => workerPorts(worker)).flatMap(({ sage, fakeGemini, telegram }) => [
  {
    command: `npx tsx e2e/support/start-fake-gemini.ts ${fakeGemini}`,
    url: `http://127.0.0.1:${fakeGemini}/__fake/health`,
    reuseExistingServer: false,
    stdout: "ignore" as const,
  },
  {
    command: "node e2e/support/start-server.mjs",
    url: `http://127.0.0.1:${sage}/api/health`,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(sage),
      HOST: "127.0.0.1",
      SAGE_LOG_LEVEL: "warn",
      SAGE_LOGIN_RATE_LIMIT: "10000",
      // Each test signs in a fresh account: at the standard cost that was 2-4 s of argon2 a test on a loaded machine.
      SAGE_PASSWORD_COST: "minimum",
      GEMINI_API_KEY: "e2e-fake-key",
      GEMINI_BASE_URL: `http://127.0.0.1:${fakeGemini}/v1beta`,
      SAGE_EMBEDDER: "gemini",
      SAGE_FETCH_ALLOW_PRIVATE: "true",
      SAGE_TELEGRAM_API_ROOT: `http://127.0.0.1:${telegram}`,
    },
  },
]);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // Hang detectors, not speed checks (speed lives in `npm run bench`): a loaded two-core machine is many times
  // slower than a quiet one.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  globalTeardown: "./e2e/support/remove-data-dirs.ts",
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
    // Each test's fresh context would install the PWA's service worker and precache the whole shell again: about a
    // second per test on this machine. The tests about the worker allow it (offline, content security policy).
    serviceWorkers: "block",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: servers,
});
