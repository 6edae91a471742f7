import { expect, test } from "@playwright/test";
import { DEMO } from "../support/auth.ts";

test.describe("the real server over HTTP", () => {
  test("every /api route without the session cookie is 401 JSON", async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    for (const path of ["/api/auth/me", "/api/conversations", "/api/reminders", "/api/files?userId=3"]) {
      const response = await api.get(path);
      expect(response.status(), path).toBe(401);
      expect(await response.json()).toEqual({ error: "Not logged in", code: "unauthorized" });
    }
    await api.dispose();
  });

  test("a cookie of a deleted session is 401", async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    expect((await api.post("/api/auth/login", { data: DEMO })).status()).toBe(200);
    const { cookies } = await api.storageState();
    const session = cookies.find((cookie) => cookie.name === "sage_session")!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe("Lax");
    expect((await api.get("/api/auth/me")).status()).toBe(200);
    expect((await api.post("/api/auth/logout")).status()).toBe(200);

    const replay = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { cookie: `sage_session=${session.value}` },
    });
    const response = await replay.get("/api/auth/me");
    expect(response.status()).toBe(401);
    await Promise.all([api.dispose(), replay.dispose()]);
  });

  test("the web app is served for client routes, with the manifest", async ({ request }) => {
    const page = await request.get("/some/client/route");
    expect(page.status()).toBe(200);
    expect(page.headers()["content-type"]).toContain("text/html");
    const manifest = await request.get("/manifest.webmanifest");
    expect(manifest.status()).toBe(200);
    const json = JSON.parse(await manifest.text());
    expect(json.display_override).toContain("window-controls-overlay");
  });
});
