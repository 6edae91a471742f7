import { expect, test } from "@playwright/test";
import { login } from "../support/auth.ts";

// These tests are about the service worker, which the config blocks for every other test.
test.use({ serviceWorkers: "allow" });

test.describe("PWA", () => {
  test("index.html links the manifest, the theme colour and the icons", async ({ page, request }) => {
    await page.goto("/login");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    await expect(page.locator('meta[name="theme-color"]')).toHaveCount(1);
    const manifest = await (await request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({
      name: "SAGE",
      short_name: "SAGE",
      start_url: "/",
      scope: "/",
      display: "standalone",
      display_override: ["window-controls-overlay", "standalone"],
    });
    const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
    expect(sizes).toEqual(expect.arrayContaining(["any", "192x192", "512x512"]));
    for (const icon of manifest.icons as Array<{ src: string; type: string }>) {
      const response = await request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()["content-type"], icon.src).toContain(icon.type.split("+")[0]);
    }
  });

  test("the service worker starts the app offline and never caches /api/", async ({ page, context }) => {
    await login(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Let the worker take control and cache the shell.
    await page.reload();
    await expect(page.getByRole("heading", { name: "My Conversations" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain("/index.html");
    expect(cached.some((path) => path.startsWith("/assets/"))).toBe(true);
    expect(cached.filter((path) => path.startsWith("/api"))).toEqual([]);

    await context.setOffline(true);
    await page.goto("/settings");
    // The shell starts from the cache; the session check fails on the network and keeps the local state.
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    await expect(page.getByRole("banner").getByText("SAGE", { exact: true })).toBeVisible();
    await context.setOffline(false);
  });
});
