import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { freePort } from "@sage/testkit/local-server";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { radicaleInstalled, startRadicale, type RadicaleServer } from "@sage/testkit/radicale-server";
import { startSmtp } from "../../apps/server/src/test/smtp-test-server.ts";
import { send } from "../support/chat.ts";
import { e2eDataDir } from "../support/data-dir.mjs";
import { fakeGemini } from "../support/fake-gemini.ts";
import { FAKE_GEMINI_ORIGIN } from "../support/ports.ts";

// "Sign in with Google" as a user does it. The Google preset is pointed at local servers (SAGE_OAUTH_TEST_ENDPOINTS):
// a real OpenID Connect server with its login and consent pages in Google's place, Dovecot checking the XOAUTH2 token
// at its introspection endpoint, an SMTP server doing the same, and Radicale behind a bearer check for the calendar.
// Its own SAGE server, since the worker's has no sign-in configured; the worker's fake Gemini answers both.
test.describe.configure({ mode: "serial" });
test.skip(!dovecotInstalled(), DOVECOT_MISSING);

const CLIENT = { id: "sage-e2e", secret: "sage-e2e-secret" };
const GOOGLE_MAIL = "https://mail.google.com/";
const GOOGLE_CALENDAR = "https://www.googleapis.com/auth/calendar";
const DAY = 86_400_000;

let oauth: OAuthTestServer;
let dovecot: DovecotServer;
let radicale: RadicaleServer | null = null;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sage: ChildProcess;
let base: string;

function* inbox() {
  for (let n = 1; n <= 60; n++) {
    const received = new Date(Date.now() - (n + 1) * DAY);
    const subject = n === 1 ? "Supply contract with Nordlicht" : `Weekly update ${n}`;
    yield {
      received,
      raw: mailMessage({
        from: "Anna Berg <anna@example.com>",
        to: "exec@example.com",
        subject,
        date: received,
        messageId: `<g${n}@example.com>`,
        body: `${subject}.`,
      }),
    };
  }
}

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  oauth = await startOAuthServer({
    clients: [{ ...CLIENT, redirectUris: [`${base}/api/oauth/google/callback`] }],
    users: [{ login: "exec", email: "exec@example.com", name: "Erika Exec" }],
    resources: { "https://www.googleapis.com": [GOOGLE_MAIL, GOOGLE_CALENDAR] },
  });
  const introspect = (token: string) => oauth.introspect(token);
  [dovecot, smtp, radicale] = await Promise.all([
    startDovecot({ user: "exec@example.com", oauth2: { introspectionUrl: oauth.introspectionUrl }, inbox: inbox() }),
    startSmtp("nobody", "no-password", { checkToken: introspect }),
    radicaleInstalled() ? startRadicale({ user: "exec@example.com", bearer: { scope: GOOGLE_CALENDAR, introspect } }) : Promise.resolve(null),
  ]);
  await radicale?.makeCalendar("primary", "exec@example.com");
  const local = (port: number) => ({ host: "127.0.0.1", port, secure: false });
  sage = spawn(process.execPath, ["e2e/support/start-server.mjs"], {
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SAGE_LOG_LEVEL: "warn",
      SAGE_PASSWORD_COST: "minimum",
      GEMINI_API_KEY: "e2e-fake-key",
      GEMINI_BASE_URL: `${FAKE_GEMINI_ORIGIN}/v1beta`,
      SAGE_EMBEDDER: "none",
      SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1",
      SAGE_PUBLIC_URL: base,
      SAGE_GOOGLE_CLIENT_ID: CLIENT.id,
      SAGE_GOOGLE_CLIENT_SECRET: CLIENT.secret,
      SAGE_OAUTH_TEST_ENDPOINTS: JSON.stringify({
        google: { issuer: oauth.issuer, imap: local(dovecot.port), smtp: local(smtp.port), ...(radicale ? { caldavUrl: radicale.url } : {}) },
      }),
    },
  });
  await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok ?? false, { timeout: 60_000, intervals: [250] }).toBe(true);
});

test.afterAll(async () => {
  if (sage && sage.exitCode === null) {
    const exited = new Promise((resolve) => sage.once("exit", resolve));
    sage.kill("SIGTERM");
    await exited;
  }
  rmSync(e2eDataDir(new URL(base).port), { recursive: true, force: true });
  await Promise.all([dovecot?.stop(), smtp?.close(), radicale?.stop(), oauth?.stop()]);
});

/** Logged in to this test's own server, as the login page leaves it. */
async function logIn(page: Page) {
  const answer = await page.request.post(`${base}/api/auth/login`, { data: { username: "demo", password: "sage-demo" } });
  expect(answer.ok()).toBe(true);
  const { user } = (await answer.json()) as { user: { id: number } };
  await page.addInitScript((id: number) => {
    localStorage.setItem("isLoggedIn", "true");
    localStorage.setItem("userId", String(id));
  }, user.id);
}

test("Sign in with Google on its consent page, watch the mail sync, and approve a send", async ({ page }) => {
  test.setTimeout(180_000);
  await fakeGemini.reset();
  await logIn(page);
  await page.goto(`${base}/settings?section=accounts`);

  // One click, then Google's (the test server's) login and consent pages, then back in Settings > Accounts.
  await page.getByRole("button", { name: "Sign in with Google" }).click();
  await page.getByPlaceholder("Enter any login").fill("exec");
  await page.getByPlaceholder("and password").fill("the password Google asks for");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${base}/settings?section=accounts&signIn=connected`);
  await expect(page.getByText("Signed in. SAGE is syncing your mail")).toBeVisible();

  const card = page.getByTestId("mail-account").filter({ hasText: "exec@example.com, signed in with Google" }).filter({ hasText: "messages" });
  await expect(card.getByRole("status")).toHaveText("Up to date", { timeout: 90_000 });
  await expect(card).toContainText("60 messages");
  if (radicale) await expect(page.getByTestId("mail-account").filter({ hasText: "Google calendar" }).getByRole("status")).toHaveText("Up to date");

  // A send waits for Approve, then leaves over XOAUTH2, from the name and address the sign-in gave.
  const conversation = (await (await page.request.post(`${base}/api/conversations`, { data: { name: "Mail" } })).json()) as { id: number };
  await page.goto(`${base}/conversations/${conversation.id}`);
  await fakeGemini.script(
    {
      functionCalls: [{ name: "sendEmail", args: { to: ["anna@example.com"], subject: "Re: Supply contract with Nordlicht", body: "Anna, I will sign it." } }],
    },
    { text: "Sent." },
  );
  await send(page, "Tell Anna I will sign the contract");
  const approval = page.getByTestId("approval-card");
  await expect(approval).toBeVisible({ timeout: 30_000 });
  await expect(approval).toContainText("Erika Exec <exec@example.com>");
  expect(smtp.received).toEqual([]);
  await approval.getByRole("button", { name: "Approve" }).click();
  // An address the user never wrote to (the model found it) is asked about once more (decision 062): the user confirms.
  if ((await approval.getAttribute("data-risk")) === "content-derived") await approval.getByRole("button", { name: "Yes, approve it" }).click();
  await expect(page.locator('[data-testid="chat-message"][data-role="ai"]').last()).toHaveText(/Sent\./, { timeout: 30_000 });
  expect(smtp.logins.at(-1)).toEqual({ method: "XOAUTH2", user: "exec@example.com" });
  expect(smtp.received[0]!.data).toMatch(/^From: Erika Exec <exec@example\.com>\r?$/m);
});
