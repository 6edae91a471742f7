import { expect, test, type Page } from "@playwright/test";
import { login } from "../support/auth.ts";

// These tests are about the service worker, which the config blocks for every other test.
test.use({ serviceWorkers: "allow" });

/**
 * The app's pages are served with a Content-Security-Policy: the app works under it (every page, the inline theme
 * script, the service worker) without one violation, no injected inline script runs, and no page, this one
 * included, can frame it.
 */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`),
    );
  });
  const messages: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) messages.push(message.text());
  });
  return async () => [...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)), ...messages];
}

test.describe("Content-Security-Policy", () => {
  test("every page is served with it, and the app runs under it without a violation", async ({ page }) => {
    const violations = await recordViolations(page);
    const shell = await page.goto("/login");
    const policy = shell!.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    // The inline theme script ran (it sets the colour scheme before first paint).
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toMatch(/^(dark|light)$/);

    await login(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.getByRole("button", { name: "New Conversation" }).click();
    await expect(page).toHaveURL(/\/conversations\/\d+$/);
    for (const [path, heading] of [
      ["/settings", "Settings"],
      ["/test-gemini", "Vector-Augmented Model Test"],
      ["/web-search-test", "Web Search Test"],
      ["/conversations", "My Conversations"],
    ] as const) {
      const response = await page.goto(path);
      expect(response!.headers()["content-security-policy"], path).toBe(policy);
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    }
    await page.getByRole("button", { name: /Switch to (dark|light) mode/ }).click();
    expect(await violations()).toEqual([]);
  });

  test("an injected inline script does not run, and the app cannot be framed", async ({ page }) => {
    await page.goto("/login");
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
    });
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();

    const refused = page.waitForEvent("console", (message) => message.text().includes("frame-ancestors"));
    await page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.src = "/login";
      frame.title = "framed";
      document.body.append(frame);
    });
    await refused;
    const framed = page.frames().find((frame) => frame !== page.mainFrame());
    expect(framed).toBeDefined();
    // A refused frame shows the browser's error page, never the app.
    expect(await framed!.locator("button", { hasText: "Login" }).count()).toBe(0);
  });
});
