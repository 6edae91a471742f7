import { afterEach, describe, expect, it } from "vitest";
import { DEMO, createTestApp, type TestApp } from "../test/test-app.ts";
import { storeChanges } from "../test/store-changes.ts";
import { rowCount } from "../test/row-count.ts";

/**
 * What auth.routes.test.ts leaves out: the cross-origin refusal swept over every state-changing route (with
 * nothing changed; a forged X-Forwarded-Host included), the cookie's flags behind HTTPS and on logout, and the login limit under a parallel burst.
 */
let t: TestApp;
afterEach(async () => t?.close());
const totalChanges = () => storeChanges(t.store);

describe("cross-origin state changes", () => {
  it("are refused on every POST, PATCH, PUT and DELETE route, changing nothing and keeping the session", async () => {
    t = await createTestApp({ env: { SAGE_LOGIN_RATE_LIMIT: "100000" } });
    const cookie = await t.login();
    const routes = t.routes.filter((route) => route.url.startsWith("/api/") && !["GET", "HEAD", "OPTIONS"].includes(route.method));
    expect(routes.length).toBeGreaterThan(10);
    const attacks: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://localhost:5001" }, // same host name, another port: another origin
      { origin: "http://localhost:5000.evil.example" },
      { "sec-fetch-site": "cross-site" },
      // X-Forwarded-Host is anyone's to send; it counts only behind a trusted proxy (trustProxy is off).
      { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
    ];
    let requests = 0;
    for (const route of routes) {
      const url = route.url.replace(/:\w+/g, "1");
      for (const attack of attacks) {
        const before = await totalChanges();
        const response = await t.app.inject({
          method: route.method as "POST",
          url,
          headers: { cookie, host: "localhost:5000", "content-type": "application/json", ...attack },
          payload: "{}",
        });
        requests += 1;
        expect(`${route.method} ${url} ${JSON.stringify(attack)}: ${response.statusCode}`).toBe(`${route.method} ${url} ${JSON.stringify(attack)}: 403`);
        expect(response.json().error).toBe("Cross-origin request refused");
        expect(await totalChanges()).toBe(before);
      }
    }
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode).toBe(200);
    console.log(`cross-origin: ${routes.length} state-changing routes x ${attacks.length} origins = ${requests} requests refused`);
  });
});

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax, path / and Secure when SAGE_SECURE_COOKIES is on; logout expires it", async () => {
    t = await createTestApp({ env: { SAGE_SECURE_COOKIES: "true" } });
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: DEMO });
    const cookie = login.cookies.find((item) => item.name === "sage_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: true });
    const logout = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie: `sage_session=${cookie.value}` } });
    const cleared = logout.cookies.find((item) => item.name === "sage_session");
    expect(cleared?.value ?? "").toBe("");
    expect(cleared && (cleared.maxAge === 0 || (cleared.expires && cleared.expires.getTime() < Date.now()))).toBeTruthy();
  });
});

describe("login rate limit", () => {
  it("holds under a burst of 40 parallel guesses: at most the limit are checked, then even the right password waits", async () => {
    t = await createTestApp({ env: { SAGE_LOGIN_RATE_LIMIT: "5" } });
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        t.app.inject({ method: "POST", url: "/api/auth/login", payload: { ...DEMO, password: `guess-${index}` }, remoteAddress: "10.9.9.9" }),
      ),
    );
    const statuses = guesses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    const right = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: DEMO, remoteAddress: "10.9.9.9" });
    expect(right.statusCode).toBe(429);
    expect(await rowCount(t.store.db, "sessions")).toBe(0);
  });
});
