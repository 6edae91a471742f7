import { writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startMcpHttpServer } from "@sage/testkit/mcp-http-test-server";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents as events } from "../../test/turn-events.ts";

/**
 * A remote MCP server behind a real authorization server (oidc-provider), through the whole app (decision 080):
 * the 401, protected-resource metadata, the authorization server's metadata, dynamic registration, PKCE and
 * `resource`, the callback, refresh, a revoked token, removal revoking the token, and each user's own sign-in.
 */
const SCOPE = "notes";
let gemini: FakeGemini;
let oauth: OAuthTestServer;
let mcp: Awaited<ReturnType<typeof startMcpHttpServer>>;
let t: TestApp;
const resources: Record<string, string[]> = {};

beforeAll(async () => {
  gemini = await startFakeGemini();
  oauth = await startOAuthServer({
    clients: [],
    users: [
      { login: "ada", email: "ada@example.com", name: "Ada" },
      { login: "bob", email: "bob@example.com", name: "Bob" },
    ],
    resources,
    dynamicRegistration: true,
    scopes: [SCOPE],
    // Shorter than the refresh margin: every use of a token refreshes it first.
    accessTokenSeconds: 60,
  });
  mcp = await startMcpHttpServer({ oauth: { issuer: oauth.issuer, scope: SCOPE, introspect: (token) => oauth.introspect(token) } });
  resources[mcp.url] = [SCOPE];
  t = await createTestApp({
    env: { GEMINI_API_KEY: "mcp-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none", SAGE_FETCH_ALLOW_PRIVATE: "true", SAGE_MCP_TIMEOUT_MS: "20000" },
  });
});
afterAll(async () => {
  await t?.close();
  await mcp?.close();
  await oauth?.stop();
  await gemini?.close();
});

const call = (cookie: string, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, extra: Record<string, string> = {}) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie, ...extra } });

/** The user presses Sign in: SAGE sends the browser to the authorization server, the user signs in, SAGE's callback ends it. */
async function signIn(cookie: string, signInUrl: string, login: string) {
  const start = await call(cookie, "GET", signInUrl);
  expect(start.statusCode).toBe(302);
  const authorization = new URL(start.headers.location as string);
  const browser = String(start.headers["set-cookie"]).split(";")[0]!;
  const callback = await oauth.authorize(authorization.href, login);
  const back = await call(`${cookie}; ${browser}`, "GET", `${callback.pathname}${callback.search}`);
  return { authorization, back, browser, callback };
}

async function whoami(cookie: string) {
  gemini.script({ functionCalls: [{ name: "notes__whoami", args: {} }] }, { text: "Done." });
  const conversation = (await call(cookie, "POST", "/api/conversations", { name: "Who" })).json().id as number;
  const received = events((await call(cookie, "POST", `/api/conversations/${conversation}/turn`, { content: "Who am I there?" })).body);
  return received.find(([event]) => event === "tool-result")?.[1].result;
}

describe("a remote server that needs a sign-in", () => {
  let ada: string;
  let adaServer: string;
  let bob: string;
  let bobServer: string;

  it("asks to sign in, then follows the server's metadata to its authorization server, registers, and connects", async () => {
    ada = await t.login();
    const added = await call(ada, "POST", "/api/tools/servers", { name: "notes", url: mcp.url });
    expect(added.statusCode).toBe(201);
    adaServer = added.json().id;
    expect(added.json()).toEqual({
      id: adaServer,
      name: "notes",
      url: mcp.url,
      status: "sign-in-needed",
      signInUrl: `/api/tools/servers/${adaServer}/sign-in`,
      error: "Sign in needed",
      trusted: false,
    });

    const { authorization, back } = await signIn(ada, added.json().signInUrl, "ada");
    // Discovery found the issuer, SAGE registered itself there, and asked for a code with PKCE for this server.
    expect(authorization.origin).toBe(oauth.issuer);
    const params = authorization.searchParams;
    expect(params.get("client_id")).toBeTruthy();
    expect(params.get("response_type")).toBe("code");
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get("resource")).toBe(mcp.url);
    expect(params.get("scope")?.split(" ")).toContain(SCOPE);
    expect(params.get("redirect_uri")).toMatch(/\/api\/tools\/servers\/oauth\/callback$/);
    expect([back.statusCode, back.headers.location]).toEqual([302, "/settings?section=tools&signIn=connected"]);

    const servers = await call(ada, "GET", "/api/tools/servers");
    expect(servers.json().servers).toEqual([expect.objectContaining({ id: adaServer, status: "connected" })]);
    // No token ever leaves SAGE.
    for (const token of oauth.issuedTokens) expect(servers.body).not.toContain(token);
    const tools = (await call(ada, "GET", "/api/tools")).json();
    expect(tools.servers.find((server: { id: string }) => server.id === adaServer).tools.map((tool: { name: string }) => tool.name)).toContain("whoami");
  });

  it("uses the user's own token, refreshed before it runs out", async () => {
    expect((await call(ada, "PATCH", `/api/tools/servers/${adaServer}`, { trusted: true })).statusCode).toBe(200);
    const refreshes = oauth.tokenGrants.filter((grant) => grant.grantType === "refresh_token").length;
    expect(await whoami(ada)).toEqual({ success: true, result: "signed in as ada@example.com" });
    expect(oauth.tokenGrants.filter((grant) => grant.grantType === "refresh_token").length).toBeGreaterThan(refreshes);
  });

  it("never gives one user's sign-in to another: the same server asks them to sign in themselves", async () => {
    ({ cookie: bob } = await t.loginAsNewUser("bob"));
    expect((await call(bob, "GET", "/api/tools/servers")).json()).toEqual({ servers: [] });
    expect((await call(bob, "GET", `/api/tools/servers/${adaServer}/sign-in`)).statusCode).toBe(404);
    const added = (await call(bob, "POST", "/api/tools/servers", { name: "notes", url: mcp.url })).json();
    bobServer = added.id;
    expect(added.status).toBe("sign-in-needed");
    // Bob's way back from the authorization server, taken to Ada's session (even with his browser's cookie), is refused.
    const start = await call(bob, "GET", added.signInUrl);
    const browser = String(start.headers["set-cookie"]).split(";")[0]!;
    const callback = await oauth.authorize(start.headers.location as string, "bob");
    const stolen = await call(`${ada}; ${browser}`, "GET", `${callback.pathname}${callback.search}`);
    expect([stolen.statusCode, stolen.json().code]).toEqual([400, "sign_in_state_invalid"]);
    const back = await call(`${bob}; ${browser}`, "GET", `${callback.pathname}${callback.search}`);
    expect(back.headers.location).toBe("/settings?section=tools&signIn=connected");
    // Used once: the same way back again changes nothing.
    expect((await call(`${bob}; ${browser}`, "GET", `${callback.pathname}${callback.search}`)).statusCode).toBe(400);
    expect((await call(bob, "PATCH", `/api/tools/servers/${bobServer}`, { trusted: true })).statusCode).toBe(200);
    expect(await whoami(bob)).toEqual({ success: true, result: "signed in as bob@example.com" });
    expect(await whoami(ada)).toEqual({ success: true, result: "signed in as ada@example.com" });
  });

  it("says Sign in again when the authorization server ended the sign-in; the other user's stays", async () => {
    await oauth.withdrawConsent("ada");
    const result = await whoami(ada);
    expect(result.success).toBe(false);
    const servers = (await call(ada, "GET", "/api/tools/servers")).json().servers;
    expect(servers).toEqual([
      expect.objectContaining({ id: adaServer, status: "sign-in-needed", error: "Sign in again", signInUrl: `/api/tools/servers/${adaServer}/sign-in` }),
    ]);
    expect(await whoami(bob)).toEqual({ success: true, result: "signed in as bob@example.com" });
  });

  it("revokes the token at the authorization server when the user removes the server", async () => {
    const revoked = oauth.revocations.length;
    expect((await call(bob, "DELETE", `/api/tools/servers/${bobServer}`)).statusCode).toBe(200);
    expect(oauth.revocations.length).toBe(revoked + 1);
    expect((await call(bob, "GET", "/api/tools/servers")).json()).toEqual({ servers: [] });
  });
});

describe("the private-address rule", () => {
  it("reaches only what the operator allowed: a server allowed by host and port, its authorization server elsewhere refused", async () => {
    const mcpHost = new URL(mcp.url).host;
    const strict = await createTestApp({ env: { SAGE_EMBEDDER: "none", SAGE_ACCOUNT_ALLOW_HOSTS: mcpHost, SAGE_MCP_TIMEOUT_MS: "20000" } });
    try {
      const cookie = await strict.login();
      const refused = mcp.tokensRefused();
      const added = await strict.app.inject({ method: "POST", url: "/api/tools/servers", payload: { name: "notes", url: mcp.url }, headers: { cookie } });
      // The server (allowed) answers 401 and names its authorization server, on an address nobody allowed: refused.
      expect(added.json()).toMatchObject({ status: "error", error: "Could not connect over Streamable HTTP: 127.0.0.1 is a private address" });
      expect(added.json().signInUrl).toBeUndefined();
      expect(mcp.tokensRefused()).toBeGreaterThan(refused);
      const servers = (await strict.app.inject({ method: "GET", url: "/api/tools/servers", headers: { cookie } })).json().servers;
      expect(servers).toEqual([expect.objectContaining({ name: "notes", status: "error" })]);
    } finally {
      await strict.close();
    }
  });
});

describe("a remote server the administrator offers to everyone", () => {
  it("asks each user to sign in for themselves, and uses each one's own token", async () => {
    const temp = makeTempDir();
    const configPath = path.join(temp.dir, "mcp.json");
    writeFileSync(configPath, JSON.stringify({ mcpServers: { crm: { url: mcp.url, oauth: {} } } }));
    const shared = await createTestApp({
      env: { GEMINI_API_KEY: "mcp-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none", SAGE_FETCH_ALLOW_PRIVATE: "true", SAGE_MCP_CONFIG: configPath },
    });
    const inShared = (cookie: string, method: "GET" | "PATCH", url: string, payload?: object) =>
      shared.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie } });
    /** The user's row for the server, once their connection has been tried (on first use). */
    async function crmRow(cookie: string, state: string) {
      const deadline = Date.now() + 45_000;
      for (;;) {
        const row = (await inShared(cookie, "GET", "/api/tools")).json().servers.find((server: { id: string }) => server.id === "config:crm");
        if (row?.state === state) return row;
        if (Date.now() > deadline) throw new Error(`config:crm never became ${state}: ${JSON.stringify(row)}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    try {
      // Two SAGE users, who sign in at the authorization server as ada and bob.
      const people = [await shared.loginAsNewUser("carol"), await shared.loginAsNewUser("dave")];
      for (const [index, person] of people.entries()) {
        const login = index === 0 ? "ada" : "bob";
        const row = await crmRow(person.cookie, "sign-in-needed");
        expect(row.signInUrl).toBe("/api/tools/servers/config%3Acrm/sign-in");
        const start = await inShared(person.cookie, "GET", row.signInUrl);
        expect(start.statusCode).toBe(302);
        const browser = String(start.headers["set-cookie"]).split(";")[0]!;
        const callback = await oauth.authorize(start.headers.location as string, login);
        const back = await shared.app.inject({
          method: "GET",
          url: `${callback.pathname}${callback.search}`,
          headers: { cookie: `${person.cookie}; ${browser}` },
        });
        expect(back.headers.location).toBe("/settings?section=tools&signIn=connected");
        expect((await crmRow(person.cookie, "connected")).tools.map((tool: { name: string }) => tool.name)).toContain("whoami");
      }
      for (const [index, person] of people.entries()) {
        gemini.script({ functionCalls: [{ name: "crm__whoami", args: {} }] }, { text: "Done." });
        expect((await inShared(person.cookie, "PATCH", "/api/tools/servers/config:crm", { trusted: true })).statusCode).toBe(200);
        const conversation = (
          await shared.app.inject({ method: "POST", url: "/api/conversations", payload: { name: "Who" }, headers: { cookie: person.cookie } })
        ).json().id;
        const turn = await shared.app.inject({
          method: "POST",
          url: `/api/conversations/${conversation}/turn`,
          payload: { content: "Who am I there?" },
          headers: { cookie: person.cookie },
        });
        const result = events(turn.body).find(([event]) => event === "tool-result")?.[1].result;
        expect(result).toEqual({ success: true, result: `signed in as ${index === 0 ? "ada" : "bob"}@example.com` });
      }
    } finally {
      await shared.close();
      temp.remove();
    }
  });
});
