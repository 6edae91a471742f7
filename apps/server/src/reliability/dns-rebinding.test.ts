/**
 * DNS rebinding (issue 36): a page at rebind.example whose name is switched to 127.0.0.1 talks to SAGE as its own
 * origin, so its requests carry `Host: rebind.example:5311` and a matching Origin, pass the cross-origin check, and
 * logged in with the demonstration password. SAGE answers only to its bound address, localhost, 127.0.0.1, [::1]
 * and the names in SAGE_ALLOWED_HOSTS (decision 027); anything else is refused before sessions and origins.
 */
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO, createTestApp, type TestApp } from "../test/test-app.ts";
import { rawRequest } from "./raw-http.ts";
import { storeChanges } from "../test/store-changes.ts";

let t: TestApp;
afterEach(async () => t?.close());
const totalChanges = () => storeChanges(t.store);

const refusal = (name: string) => ({
  code: "host_not_allowed",
  error: `SAGE does not answer to the name ${name}. Open it at its own address or localhost, or add the name to SAGE_ALLOWED_HOSTS.`,
});

/** As the rebinding page sends them: its own name as Host, and as Origin on state changes. */
const asSite = (host: string) => ({ host, origin: `http://${host}` });

describe("a Host the server does not answer to", () => {
  it("is refused before login, session and origin checks, for the API and the app's pages, changing nothing", async () => {
    t = await createTestApp();
    const cookie = await t.login();
    const before = await totalChanges();
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", headers: asSite("rebind.example:5311"), payload: DEMO });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual(refusal("rebind.example"));
    expect(login.headers["set-cookie"]).toBeUndefined();
    // Even with a session cookie (one the page could not read, but a browser would send it along).
    for (const [method, url, payload] of [
      ["GET", "/api/files", undefined],
      ["GET", "/api/memories", undefined],
      ["POST", "/api/memories", { content: "The CEO's PIN is 1234" }],
      ["POST", "/api/conversations", { name: "From the attacker" }],
      ["GET", "/", undefined],
      ["GET", "/api/health", undefined],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { ...asSite("rebind.example:5311"), cookie }, ...(payload ? { payload } : {}) });
      expect(`${method} ${url}: ${response.statusCode}`).toBe(`${method} ${url}: 403`);
      expect(response.json()).toEqual(refusal("rebind.example"));
    }
    for (const host of [
      "rebind.example",
      "localhost.rebind.example",
      "127.0.0.1.nip.io:5000",
      "LOCALHOST.evil",
      "203.0.113.7",
      "[2001:db8::1]:5000",
      "localhost:5000@evil.example",
    ]) {
      const response = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { host, cookie } });
      expect(`${host}: ${response.statusCode}`).toBe(`${host}: 403`);
      expect(response.json().code).toBe("host_not_allowed");
    }
    expect(await totalChanges()).toBe(before);
  });

  it("answers the loopback names with any port, whatever their case or a trailing dot", async () => {
    t = await createTestApp();
    for (const host of ["localhost", "localhost:5000", "localhost.:5000", "127.0.0.1", "127.0.0.1:47861", "[::1]:5000"]) {
      const response = await t.app.inject({ method: "POST", url: "/api/auth/login", headers: asSite(host), payload: DEMO });
      expect(`${host}: ${response.statusCode}`).toBe(`${host}: 200`);
    }
    // Spellings no browser sends (it writes the Host as its URL's host), still the same names.
    for (const host of ["LOCALHOST:5311", "LocalHost.", "[0:0:0:0:0:0:0:1]:5000"]) {
      const response = await t.app.inject({ method: "GET", url: "/api/health", headers: { host } });
      expect(`${host}: ${response.statusCode}`).toBe(`${host}: 200`);
    }
  });

  it("answers the names in SAGE_ALLOWED_HOSTS (a leading dot takes the subdomains too)", async () => {
    t = await createTestApp({ env: { SAGE_ALLOWED_HOSTS: "sage.example.com, .corp.example" } });
    for (const host of ["sage.example.com", "sage.example.com:8443", "corp.example", "exec.corp.example:5000"]) {
      const response = await t.app.inject({ method: "POST", url: "/api/auth/login", headers: asSite(host), payload: DEMO });
      expect(`${host}: ${response.statusCode}`).toBe(`${host}: 200`);
    }
    for (const host of ["example.com", "evil-sage.example.com", "xcorp.example", "rebind.example"]) {
      const response = await t.app.inject({ method: "POST", url: "/api/auth/login", headers: asSite(host), payload: DEMO });
      expect(`${host}: ${response.statusCode}`).toBe(`${host}: 403`);
    }
  });

  it("bound to every address, answers the machine's own addresses but no other name", async () => {
    t = await createTestApp({ env: { HOST: "0.0.0.0", SAGE_PASSWORD: "a long password" } });
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && address.family === "IPv4")
      .map((address) => address!.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: asSite(`${address}:5000`),
        payload: { username: "demo", password: "a long password" },
      });
      expect(`${address}: ${response.statusCode}`).toBe(`${address}: 200`);
    }
    for (const host of ["rebind.example:5000", "203.0.113.7:5000"]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: asSite(host),
        payload: { username: "demo", password: "a long password" },
      });
      expect(`${host}: ${response.statusCode}`).toBe(`${host}: 403`);
    }
  });

  it("is refused by the real server too (bytes on a socket)", async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as { port: number }).port;
    const body = JSON.stringify(DEMO);
    const refused = await rawRequest(
      port,
      `POST /api/auth/login HTTP/1.1\r\nHost: rebind.example:${port}\r\nOrigin: http://rebind.example:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual(refusal("rebind.example"));
    const allowed = await rawRequest(
      port,
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(allowed.status).toBe(200);
    // HTTP/1.0 lets a client leave the Host out; no browser does, and SAGE cannot tell whom it is asked to be.
    const none = await rawRequest(port, "GET /api/health HTTP/1.0\r\n\r\n");
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body).error).toMatch(/^SAGE does not answer to the name \(none\)\./);
  });
});
