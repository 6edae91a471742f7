import { afterAll, beforeAll, expect, it } from "vitest";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { TEST_CLIENT, TEST_PUBLIC_URL, testRedirectUris } from "../test/sign-in-flow.ts";
import { startServerProcess } from "./server-process.ts";

const temp = makeTempDir();
let oauth: OAuthTestServer;
beforeAll(async () => {
  oauth = await startOAuthServer({
    clients: [{ ...TEST_CLIENT, redirectUris: testRedirectUris("oidc") }],
    users: [{ login: "exec", email: "exec@example.com", name: "Erika Exec" }],
    resources: { "https://mail.example.com": ["mail"] },
  });
});
afterAll(async () => {
  await oauth?.stop();
  temp.remove();
});

it("a sign-in's code, state and tokens appear in no log line, at the most verbose level", async () => {
  const server = await startServerProcess(temp.dir, {
    SAGE_LOG_LEVEL: "trace",
    SAGE_PUBLIC_URL: TEST_PUBLIC_URL,
    SAGE_OIDC_ISSUER: oauth.issuer,
    SAGE_OIDC_CLIENT_ID: TEST_CLIENT.id,
    SAGE_OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    SAGE_OIDC_SCOPES: "openid email profile offline_access mail",
    SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1",
  });
  let callbackQuery: string;
  try {
    const login = await server.login();
    const created = await fetch(`${server.url}/api/accounts`, {
      method: "POST",
      headers: { cookie: login, "content-type": "application/json" },
      body: JSON.stringify({ kind: "mail", auth: { provider: "oidc" }, imap: { host: "127.0.0.1", port: 9, secure: false }, calendar: false }),
    });
    const account = (await created.json()) as { signInUrl: string };
    const start = await fetch(`${server.url}${account.signInUrl}`, { headers: { cookie: login }, redirect: "manual" });
    expect(start.status).toBe(302);
    const browser = start.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("sage_oauth_browser="))!
      .split(";")[0]!;
    // The provider sends the browser back to SAGE_PUBLIC_URL: here that is this server.
    const back = await oauth.authorize(start.headers.get("location")!, "exec");
    callbackQuery = back.search;
    const callback = await fetch(`${server.url}${back.pathname}${back.search}`, { headers: { cookie: `${login}; ${browser}` }, redirect: "manual" });
    expect(callback.headers.get("location")).toBe("/settings?section=accounts&signIn=connected");
    // The first sync uses the token (the mail server is not there: its failure is logged too).
    for (let i = 0; i < 200; i++) {
      const [listed] = (await (await fetch(`${server.url}/api/accounts`, { headers: { cookie: login } })).json()) as { status: string }[];
      if (listed!.status !== "syncing") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await server.stop();
  }
  const log = server.stdout() + server.stderr();
  expect(log).toContain("/api/oauth/oidc/callback?[secret]");
  const query = new URLSearchParams(callbackQuery);
  const secrets = [query.get("code")!, query.get("state")!, ...oauth.issuedTokens];
  expect(secrets.length).toBeGreaterThanOrEqual(4);
  for (const secret of secrets) expect(log).not.toContain(secret);
});
