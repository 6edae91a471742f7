import { ACCOUNT_ERRORS } from "@sage/contracts/accounts";
import { OAUTH_ERRORS, OAUTH_SETUP_TEXTS } from "@sage/contracts/oauth";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_CLIENT, TEST_PUBLIC_URL, signInThroughBrowser, testRedirectUris } from "../../test/sign-in-flow.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

// A real OpenID Connect server (oidc-provider) as the company's identity provider: discovery, login and consent pages,
// code + PKCE, refresh, introspection, revocation. The mail server is never reached here (port 9 on loopback).
let oauth: OAuthTestServer;
beforeAll(async () => {
  oauth = await startOAuthServer({
    clients: [{ ...TEST_CLIENT, redirectUris: testRedirectUris("oidc") }],
    users: [
      { login: "exec", email: "exec@example.com", name: "Erika Exec" },
      { login: "other", email: "other@example.com", name: "Someone Else" },
    ],
    resources: { "https://mail.example.com": ["mail"] },
  });
});
afterAll(async () => oauth?.stop());

let t: TestApp;
let cookie: string;
let clock = Date.now();
beforeEach(async () => {
  clock = Date.now();
  t = await createTestApp({
    env: {
      SAGE_PUBLIC_URL: TEST_PUBLIC_URL,
      SAGE_OIDC_ISSUER: oauth.issuer,
      SAGE_OIDC_CLIENT_ID: TEST_CLIENT.id,
      SAGE_OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      SAGE_OIDC_SCOPES: "openid email profile offline_access mail",
      SAGE_OIDC_NAME: "Acme",
    },
    now: () => new Date(clock),
  });
  cookie = await t.login();
});
afterEach(async () => t.close());

const call = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers: Record<string, string> = { cookie }) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const companyAccount = { kind: "mail", auth: { provider: "oidc" }, imap: { host: "127.0.0.1", port: 9, secure: false }, calendar: false };
const grantRow = () => t.store.db.selectFrom("oauthGrants").selectAll().executeTakeFirstOrThrow();
const accountState = async () => (await call("GET", "/api/accounts")).json()[0];

describe("sign-in with an identity provider", () => {
  it("lists the providers, saying what the operator must set for those not set up", async () => {
    expect((await call("GET", "/api/oauth/providers")).json()).toEqual([
      { id: "google", name: "Google", configured: false, setup: OAUTH_SETUP_TEXTS.google },
      { id: "microsoft", name: "Microsoft", configured: false, setup: OAUTH_SETUP_TEXTS.microsoft },
      { id: "oidc", name: "Acme", configured: true, setup: null },
    ]);
    const google = await call("POST", "/api/accounts", { kind: "mail", auth: { provider: "google" } });
    expect(google.statusCode).toBe(400);
    expect(google.json()).toEqual({ error: OAUTH_SETUP_TEXTS.google, code: "sign_in_not_configured" });
    expect((await call("GET", "/api/oauth/google/start?account=1")).json().error).toBe(OAUTH_SETUP_TEXTS.google);
    expect((await call("GET", "/api/accounts")).json()).toEqual([]);
    expect((await t.app.inject({ method: "GET", url: "/api/oauth/providers" })).statusCode).toBe(401);
  });

  it("signs in with code + PKCE + state, stores the tokens sealed, and sets the account syncing", async () => {
    const created = await call("POST", "/api/accounts", companyAccount);
    expect(created.statusCode).toBe(201);
    const account = created.json();
    expect(account).toMatchObject({
      kind: "mail",
      name: "Acme mail",
      status: "sign-in-needed",
      auth: { provider: "oidc", user: null },
      signInUrl: `/api/oauth/oidc/start?account=${account.id}`,
      imap: { host: "127.0.0.1", port: 9, secure: false, user: "" },
      smtp: null,
      address: null,
    });

    const { start, callback } = await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "exec");
    const authorization = new URL(start.headers.location as string);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${oauth.issuer}/auth`);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: "code",
      client_id: TEST_CLIENT.id,
      redirect_uri: `${TEST_PUBLIC_URL}/api/oauth/oidc/callback`,
      code_challenge_method: "S256",
      scope: "openid email profile offline_access mail",
      prompt: "consent",
    });
    expect(authorization.searchParams.get("state")).toMatch(/^[\w-]{40,}$/);
    expect(authorization.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(start.cookies.find((item) => item.name === "sage_oauth_browser")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/oauth/" });

    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=connected");
    expect(oauth.tokenGrants.at(-1)).toMatchObject({ grantType: "authorization_code" });
    // The login, the address, the display name and the account's name come from the ID token.
    expect(await accountState()).toMatchObject({
      name: "exec@example.com",
      auth: { provider: "oidc", user: "exec@example.com" },
      address: "exec@example.com",
      displayName: "Erika Exec",
      imap: { user: "exec@example.com" },
    });
    const grant = await grantRow();
    expect(grant).toMatchObject({ status: "ok", login: "exec@example.com", subject: "exec" });
    // Its sender can change; a password cannot be given to an account that signs in.
    const patch = (body: object) => t.app.inject({ method: "PATCH", url: `/api/accounts/${account.id}`, headers: { cookie }, payload: body });
    expect((await patch({ address: "erika@example.com", displayName: "" })).json()).toMatchObject({ address: "erika@example.com", displayName: null });
    const withPassword = await patch({ imap: { host: "127.0.0.1", port: 9, secure: false, user: "exec", password: "typed-anyway" } });
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().error).toBe(ACCOUNT_ERRORS.signInNotThisWay);
    expect(String(grant.tokens)).toMatch(/^v1:/);
    expect(await t.store.db.selectFrom("oauthFlows").selectAll().execute()).toEqual([]);
  });

  it("refuses a callback with a wrong, reused or other browser's state with 400, changing nothing", async () => {
    const account = (await call("POST", "/api/accounts", companyAccount)).json();
    const start = await call("GET", account.signInUrl);
    const browserCookie = `${cookie}; sage_oauth_browser=${start.cookies.find((item) => item.name === "sage_oauth_browser")!.value}`;
    const back = await oauth.authorize(start.headers.location as string, "exec");
    const codesRedeemed = oauth.tokenGrants.filter((grant) => grant.grantType === "authorization_code").length;
    const callbackPath = `${back.pathname}${back.search}`;

    const forged = new URL(back);
    forged.searchParams.set("state", "a-state-nobody-issued");
    const wrong = await call("GET", `${forged.pathname}${forged.search}`, undefined, { cookie: browserCookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: OAUTH_ERRORS.stateInvalid, code: "sign_in_state_invalid" });
    const otherBrowser = await call("GET", callbackPath);
    expect(otherBrowser.statusCode).toBe(400);
    expect(otherBrowser.json().error).toBe(OAUTH_ERRORS.browserMismatch);
    const otherUser = await t.loginAsNewUser();
    expect((await call("GET", callbackPath, undefined, { cookie: `${otherUser.cookie}; sage_oauth_browser=x` })).statusCode).toBe(400);
    expect((await accountState()).status).toBe("sign-in-needed");
    expect((await grantRow()).tokens).toBeNull();
    expect(oauth.tokenGrants.filter((grant) => grant.grantType === "authorization_code")).toHaveLength(codesRedeemed);

    // The right callback still works once, then its state is used up.
    expect((await call("GET", callbackPath, undefined, { cookie: browserCookie })).headers.location).toBe("/settings?section=accounts&signIn=connected");
    const reused = await call("GET", callbackPath, undefined, { cookie: browserCookie });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe(OAUTH_ERRORS.stateInvalid);
  });

  it("a cancelled sign-in changes nothing; one as another person keeps the account's mailbox", async () => {
    const account = (await call("POST", "/api/accounts", companyAccount)).json();
    const start = await call("GET", account.signInUrl);
    const browserCookie = `${cookie}; sage_oauth_browser=${start.cookies.find((item) => item.name === "sage_oauth_browser")!.value}`;
    const state = new URL(start.headers.location as string).searchParams.get("state")!;
    const cancelled = await call("GET", `/api/oauth/oidc/callback?error=access_denied&state=${state}`, undefined, { cookie: browserCookie });
    expect(cancelled.headers.location).toBe("/settings?section=accounts&signIn=cancelled");
    expect((await accountState()).status).toBe("sign-in-needed");

    await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "exec");
    const { callback } = await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "other");
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=other-account");
    expect(await accountState()).toMatchObject({ auth: { user: "exec@example.com" }, imap: { user: "exec@example.com" } });
  });

  it("refreshes an expiring token; a withdrawn consent makes it sign-in-needed until Sign in again", async () => {
    const account = (await call("POST", "/api/accounts", companyAccount)).json();
    await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "exec");
    await t.jobs.idle();
    // An hour on: the next sync finds the token about to expire and refreshes it first.
    clock += 58 * 60_000;
    const refreshesBefore = oauth.tokenGrants.filter((grant) => grant.grantType === "refresh_token").length;
    await call("POST", `/api/accounts/${account.id}/sync`);
    await t.jobs.idle();
    expect(oauth.tokenGrants.filter((grant) => grant.grantType === "refresh_token")).toHaveLength(refreshesBefore + 1);
    expect((await accountState()).status).toBe("error"); // port 9: the mail server itself is not there

    await oauth.withdrawConsent("exec");
    clock += 58 * 60_000;
    await call("POST", `/api/accounts/${account.id}/sync`);
    await t.jobs.idle();
    expect(await accountState()).toMatchObject({ status: "sign-in-needed", error: null, signInUrl: account.signInUrl });
    expect((await grantRow()).tokens).toBeNull();

    const { callback } = await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "exec");
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=connected");
    expect((await accountState()).status).not.toBe("sign-in-needed");
    await t.jobs.idle();
  });

  it("deleting the account revokes its token at the provider; no response carries a token", async () => {
    const account = (await call("POST", "/api/accounts", companyAccount)).json();
    const { callback, start } = await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "exec");
    await t.jobs.idle();
    // The provider's access token, as Dovecot would be shown it, is active until the account goes.
    const token = await t.app.inject({ method: "GET", url: "/api/accounts", headers: { cookie } });
    const accessTokens = await oauthTokensIssued();
    expect(accessTokens.length).toBeGreaterThan(0);
    for (const response of [start, callback, token]) for (const value of accessTokens) expect(response.body).not.toContain(value);
    expect((await oauth.introspect(accessTokens[0]!)).active).toBe(true);

    expect((await call("DELETE", `/api/accounts/${account.id}`)).json()).toEqual({ ok: true });
    expect(oauth.revocations).toContainEqual({ hint: "refresh_token" });
    expect((await oauth.introspect(accessTokens[0]!)).active).toBe(false);
    expect(await t.store.db.selectFrom("oauthGrants").selectAll().execute()).toEqual([]);
  });
});

/** The access tokens SAGE holds, opened with its own key (only a test may). */
async function oauthTokensIssued(): Promise<string[]> {
  const { createSecretBox, loadSecretKey } = await import("../../store/secret-box.ts");
  const box = createSecretBox(loadSecretKey(t.config.dataDir, t.config.secretKey));
  const rows = await t.store.db.selectFrom("oauthGrants").select("tokens").execute();
  return rows.flatMap((row) => {
    const opened = row.tokens ? box.open(row.tokens) : null;
    return opened ? Object.values((JSON.parse(opened) as { access: Record<string, { token: string }> }).access).map((entry) => entry.token) : [];
  });
}
