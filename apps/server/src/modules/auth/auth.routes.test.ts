import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, DEMO, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => t.close());

describe("login", () => {
  it("accepts the demonstration account (user id 3) and sets an HttpOnly SameSite=Lax session cookie", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: DEMO });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: { id: 3, username: "demo" } });
    const setCookie = String(response.headers["set-cookie"]);
    expect(setCookie).toMatch(/^sage_session=[\w-]{40,}/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
  });

  it("refuses a wrong password and an unknown user with the same 401 message", async () => {
    for (const payload of [
      { ...DEMO, password: "nope" },
      { username: "ghost", password: "sage-demo" },
    ]) {
      const response = await t.app.inject({ method: "POST", url: "/api/auth/login", payload });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe("Invalid username or password");
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("stores the password hashed with argon2, never in clear", async () => {
    const row = await t.store.db.selectFrom("users").select("passwordHash").where("id", "=", 3).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(DEMO.password);
  });

  it("answers a body that is not JSON or has wrong types with a 400 JSON error", async () => {
    const notJson = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{username",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toBe("Request body is not valid JSON");
    const wrongType = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username: 5, password: [] } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error).toMatch(/^Invalid body: username/);
  });

  it("rate-limits login attempts per client with a clear 429", async () => {
    await t.close();
    t = await createTestApp({ env: { SAGE_LOGIN_RATE_LIMIT: "3" } });
    const attempt = (ip: string) => t.app.inject({ method: "POST", url: "/api/auth/login", payload: { ...DEMO, password: "x" }, remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await attempt("10.1.1.1")).statusCode).toBe(401);
    const limited = await attempt("10.1.1.1");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("Too many login attempts. Please wait a minute and try again.");
    // When to try again, in seconds: what is left of the minute.
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(60);
    // Even the right password is refused while limited; another client is unaffected.
    const right = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: DEMO, remoteAddress: "10.1.1.1" });
    expect(right.statusCode).toBe(429);
    expect((await attempt("10.2.2.2")).statusCode).toBe(401);
  });
});

describe("sessions", () => {
  it("me returns the session's user; without a cookie every /api route is 401 JSON", async () => {
    const cookie = await t.login();
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect(me.json()).toEqual({ user: { id: 3, username: "demo" } });
    for (const url of ["/api/auth/me", "/api/conversations", "/api/anything/at/all"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: "Not logged in", code: "unauthorized" });
    }
  });

  it("logout deletes the session on the server, so the old cookie no longer works", async () => {
    const cookie = await t.login();
    const logout = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    expect(await t.store.db.selectFrom("sessions").select("tokenHash").execute()).toEqual([]);
    const after = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it("a forged or expired token is 401", async () => {
    const cookie = await t.login();
    const forged = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: "sage_session=forged" } });
    expect(forged.statusCode).toBe(401);
    await t.store.db.updateTable("sessions").set({ expiresAtMs: 1 }).execute();
    const expired = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect(expired.statusCode).toBe(401);
  });

  it("a userId that is not the session's user is 403, in the query or the body", async () => {
    const cookie = await t.login();
    const ok = await t.app.inject({ method: "GET", url: "/api/auth/me?userId=3", headers: { cookie } });
    expect(ok.statusCode).toBe(200);
    const query = await t.app.inject({ method: "GET", url: "/api/auth/me?userId=4", headers: { cookie } });
    expect(query.statusCode).toBe(403);
    expect(query.json().error).toBe("userId does not match the logged-in user");
    const body = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie }, payload: { userId: 7 } });
    expect(body.statusCode).toBe(403);
  });

  it("users are separate accounts with their own sessions", async () => {
    const other = await t.loginAsNewUser("alice");
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: other.cookie } });
    expect(me.json().user).toEqual({ id: other.userId, username: "alice" });
    expect(other.userId).not.toBe(3);
  });
});

describe("cross-origin protection", () => {
  it("refuses a state-changing request from another origin and keeps the session", async () => {
    const cookie = await t.login();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie, origin: "https://evil.example", host: "localhost:5000" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe("Cross-origin request refused");
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect(me.statusCode).toBe(200);
  });

  it("accepts the same origin and refuses Sec-Fetch-Site cross-site", async () => {
    const same = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { origin: "http://localhost:5000", host: "localhost:5000" },
      payload: DEMO,
    });
    expect(same.statusCode).toBe(200);
    const crossSite = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "sec-fetch-site": "cross-site" },
      payload: DEMO,
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe("errors", () => {
  it("an unknown API route with a session is a 404 JSON error", async () => {
    const cookie = await t.login();
    const response = await t.app.inject({ method: "DELETE", url: "/api/nowhere", headers: { cookie } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe("Route DELETE /api/nowhere not found");
  });

  it("an over-limit body is a 413 JSON error", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: "demo", password: "x".repeat(1_200_000) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe("Request body is too large");
  });

  it("health needs no session", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.json()).toEqual({ status: "ok", version: expect.any(String) });
  });
});

describe("session cache", () => {
  it("a logout takes effect at once even right after the session was used", async () => {
    const cookie = await t.login();
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode).toBe(200);
    await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode).toBe(401);
  });
});
