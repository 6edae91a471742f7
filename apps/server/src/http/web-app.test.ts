import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterEach, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/test-app.ts";

const web = makeTempDir();
let t: TestApp;
afterEach(async () => {
  await t.close();
  web.remove();
});

it("serves hashed assets cached for good, and the app shell (any other page) revalidated", async () => {
  mkdirSync(path.join(web.dir, "assets"), { recursive: true });
  writeFileSync(path.join(web.dir, "index.html"), "<!doctype html><title>SAGE</title>");
  writeFileSync(path.join(web.dir, "assets", "app-1a2b3c.js"), "console.log(1)");
  t = await createTestApp({ env: { SAGE_WEB_DIR: web.dir } });

  const asset = await t.app.inject({ method: "GET", url: "/assets/app-1a2b3c.js" });
  expect(asset.statusCode).toBe(200);
  expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  for (const url of ["/", "/conversations/12"]) {
    const page = await t.app.inject({ method: "GET", url });
    expect(page.body).toContain("<title>SAGE</title>");
    expect(page.headers["cache-control"]).toBe("no-cache");
  }
  expect((await t.app.inject({ method: "GET", url: "/api/nothing-here" })).statusCode).toBe(401);
});

it("serves every page and the service worker with a Content-Security-Policy naming the inline scripts by hash", async () => {
  const inline = "document.documentElement.className = 'dark';";
  mkdirSync(path.join(web.dir, "assets"), { recursive: true });
  writeFileSync(
    path.join(web.dir, "index.html"),
    `<!doctype html><title>SAGE</title><script>${inline}</script><script type="module" src="/assets/app.js"></script>`,
  );
  writeFileSync(path.join(web.dir, "sw.js"), "self.addEventListener('fetch', () => {});");
  writeFileSync(path.join(web.dir, "assets", "app.js"), "console.log(1)");
  t = await createTestApp({ env: { SAGE_WEB_DIR: web.dir } });

  const hash = createHash("sha256").update(inline).digest("base64");
  for (const url of ["/", "/login", "/conversations/12", "/index.html", "/sw.js"]) {
    const response = await t.app.inject({ method: "GET", url });
    expect(response.statusCode, url).toBe(200);
    const policy = response.headers["content-security-policy"] as string;
    expect(policy, url).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy, url).toContain("frame-ancestors 'none'");
    expect(policy, url).toContain("object-src 'none'");
    expect(response.headers["x-frame-options"], url).toBe("DENY");
  }
  expect((await t.app.inject({ method: "GET", url: "/assets/app.js" })).headers["content-security-policy"]).toBeUndefined();
});
