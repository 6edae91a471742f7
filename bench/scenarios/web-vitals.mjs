import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { figure } from "../lib/figure.mjs";
import { startSage } from "../lib/server.mjs";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-quic",
  "--no-first-run",
  "--disable-sync",
];

/** JS the login route loads (gzip-compressed size) and LCP of /conversations with 100 conversations, in Chromium. */
export async function webVitals({ quick }) {
  const sage = await startSage({ label: "web" });
  const cookie = await sage.login();
  for (let i = 0; i < 100; i++) {
    await fetch(`${sage.url}/api/conversations`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: `Board meeting prep ${i}` }),
    });
  }
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() === "script") scripts.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
    });
    await page.goto(`${sage.url}/login`, { waitUntil: "networkidle" });
    const loginJsKb = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0) / 1024;

    await page.getByLabel("Username").fill("demo");
    await page.getByLabel("Password").fill("sage-demo");
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(/\/conversations$/);

    const runs = quick ? 3 : 5;
    const lcps = [];
    for (let i = 0; i < runs; i++) {
      const fresh = await context.newPage();
      await fresh.goto(`${sage.url}/conversations`, { waitUntil: "networkidle" });
      lcps.push(
        await fresh.evaluate(
          () =>
            new Promise((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries();
                resolve(entries[entries.length - 1].startTime);
              }).observe({ type: "largest-contentful-paint", buffered: true });
            }),
        ),
      );
      await fresh.close();
    }
    lcps.sort((a, b) => a - b);
    return [
      figure({ name: "web.login_route_js_gzip", value: loginJsKb, unit: "KB", better: "lower", target: "<= 200 KB", params: { scripts: scripts.length } }),
      figure({
        name: "web.conversations_lcp",
        value: lcps[Math.floor(lcps.length / 2)],
        unit: "ms",
        better: "lower",
        target: "<= 1000 ms",
        params: { conversations: 100, runs },
      }),
    ];
  } finally {
    await browser.close();
    await sage.stop();
  }
}
