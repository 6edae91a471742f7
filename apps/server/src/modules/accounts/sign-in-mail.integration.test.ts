import yauzl from "yauzl";
import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectImap } from "../../providers/mail/imap-client.ts";
import { backupClient } from "../../test/backup-client.ts";
import { TEST_CLIENT, TEST_PUBLIC_URL, signInThroughBrowser, testRedirectUris } from "../../test/sign-in-flow.ts";
import { startSmtp } from "../../test/smtp-test-server.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

// Sign-in with a company's identity server (oidc-provider, real), then mail over XOAUTH2: a real Dovecot checks each
// token at the identity server's introspection endpoint (its oauth2 passdb), and so does the SMTP server. No password
// exists anywhere in these tests.
const installed = dovecotInstalled();
if (!installed) console.warn(DOVECOT_MISSING);

const DAY = 86_400_000;
const SEEDED = 120;
const inbox = function* () {
  for (let n = 1; n <= SEEDED; n++) {
    const received = new Date(Date.now() - (n + 1) * DAY);
    yield {
      received,
      raw: mailMessage({
        from: `Team ${n % 5} <team${n % 5}@example.com>`,
        to: "exec@example.com",
        subject: `Harbour report ${n}`,
        date: received,
        messageId: `<report-${n}@example.com>`,
        body: `Report ${n}: the harbour works go on.`,
      }),
    };
  }
};

/** Every entry of a zip, as text (the backup is small). */
function zipTexts(archive: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          stream.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
          stream.on("end", () => zip.readEntry());
        }),
      );
      zip.on("end", () => resolve(text));
      zip.readEntry();
    });
  });
}

describe.skipIf(!installed)("mail that signs in: XOAUTH2 against a real Dovecot and SMTP server", () => {
  let oauth: OAuthTestServer;
  let dovecot: DovecotServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gemini: FakeGemini;
  beforeAll(async () => {
    oauth = await startOAuthServer({
      clients: [{ ...TEST_CLIENT, redirectUris: testRedirectUris("oidc") }],
      users: [{ login: "exec", email: "exec@example.com", name: "Erika Exec" }],
      resources: { "https://mail.example.com": ["mail"] },
    });
    [dovecot, smtp, gemini] = await Promise.all([
      startDovecot({
        user: "exec@example.com",
        oauth2: { introspectionUrl: oauth.introspectionUrl },
        inbox: inbox(),
        folders: [{ name: "Trash", specialUse: "\\Trash" }],
      }),
      startSmtp("nobody", "no-password-works", { checkToken: (token) => oauth.introspect(token) }),
      startFakeGemini(),
    ]);
  });
  afterAll(async () => Promise.all([dovecot?.stop(), smtp?.close(), gemini?.close(), oauth?.stop()]));

  let t: TestApp;
  let cookie: string;
  let clock = Date.now();
  /** The tokens Dovecot was logged in with, in order; what to do when a sync fetches its first batch. */
  let logins: string[] = [];
  let onFirstFetch: (() => void) | undefined;
  beforeEach(async () => {
    clock = Date.now();
    logins = [];
    onFirstFetch = undefined;
    gemini.reset();
    smtp.received.length = 0;
    t = await createTestApp({
      env: {
        SAGE_PUBLIC_URL: TEST_PUBLIC_URL,
        SAGE_OIDC_ISSUER: oauth.issuer,
        SAGE_OIDC_CLIENT_ID: TEST_CLIENT.id,
        SAGE_OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
        SAGE_OIDC_SCOPES: "openid email profile offline_access mail",
        SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1",
        GEMINI_API_KEY: "mail-key",
        GEMINI_BASE_URL: gemini.baseUrl,
        SAGE_EMBEDDER: "none",
      },
      now: () => new Date(clock),
      // The real IMAP client, watched: which token each login used, and the moment a sync has its first batch.
      connectImap: async (server, rule) => {
        logins.push(server.accessToken ?? `password:${server.password}`);
        const connection = await connectImap(server, rule);
        return {
          ...connection,
          async fetch(uids, maxBytes) {
            const fetched = await connection.fetch(uids, maxBytes);
            const hook = onFirstFetch;
            onFirstFetch = undefined;
            hook?.();
            return fetched;
          },
        };
      },
    });
    cookie = await t.login();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const accountState = async () => (await api("GET", "/api/accounts")).json()[0];
  const refreshes = () => oauth.tokenGrants.filter((grant) => grant.grantType === "refresh_token").length;
  async function signedInAccount() {
    const created = await api("POST", "/api/accounts", {
      kind: "mail",
      name: "Company mail",
      auth: { provider: "oidc" },
      imap: { host: "127.0.0.1", port: dovecot.port, secure: false },
      smtp: { host: "127.0.0.1", port: smtp.port, secure: false },
      calendar: false,
    });
    expect(created.statusCode).toBe(201);
    const account = created.json();
    const { callback } = await signInThroughBrowser(t.app, cookie, account.signInUrl, oauth, "exec");
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=connected");
    return account as { id: number; signInUrl: string };
  }

  it("syncs over XOAUTH2 and, when the token nears its expiry in a long sync, refreshes it and logs in again", async () => {
    // Fifty-six minutes pass while the first batch is fetched: the token has four left, under the five SAGE keeps.
    onFirstFetch = () => (clock += 56 * 60_000);
    const before = refreshes();
    const { id } = await signedInAccount();
    await t.jobs.idle();
    expect(await accountState()).toMatchObject({ id, status: "ok", error: null, counts: { messages: SEEDED }, auth: { user: "exec@example.com" } });
    expect(refreshes()).toBe(before + 1);
    // Two logins, each with its own token (the second after the refresh); never a password.
    expect(logins).toHaveLength(2);
    expect(new Set(logins).size).toBe(2);
    for (const token of logins) expect(token).not.toMatch(/^password:/);
    expect((await oauth.introspect(logins[1]!)).active).toBe(true);
    const synced = await t.store.db.selectFrom("mailMessages").select("messageId").execute();
    expect(new Set(synced.map((row) => row.messageId)).size).toBe(SEEDED);
  });

  it("a withdrawn consent turns the account sign-in-needed, keeping its mail; after Sign in again the sync goes on", async () => {
    const { id, signInUrl } = await signedInAccount();
    await t.jobs.idle();
    expect((await accountState()).counts.messages).toBe(SEEDED);

    // The user withdraws SAGE's access at the provider (or changes their password); an hour later a sync is due.
    await oauth.withdrawConsent("exec");
    const imap = await dovecot.session();
    await imap.append(
      "INBOX",
      mailMessage({
        from: "Anna Berg <anna@example.com>",
        to: "exec@example.com",
        subject: "Dinner with the auditors",
        date: new Date(),
        messageId: "<auditors@example.com>",
        body: "Join us on the 3rd?",
      }),
    );
    clock += 2 * 3_600_000;
    await api("POST", `/api/accounts/${id}/sync`);
    await t.jobs.idle();
    expect(await accountState()).toMatchObject({ status: "sign-in-needed", error: null, signInUrl, counts: { messages: SEEDED } });

    // Sign in again: the sync takes up where it stopped, fetching only the new message.
    logins = [];
    const { callback } = await signInThroughBrowser(t.app, cookie, signInUrl, oauth, "exec");
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=connected");
    await t.jobs.idle();
    expect(await accountState()).toMatchObject({ status: "ok", counts: { messages: SEEDED + 1 } });
    expect(logins).toHaveLength(1);
    await imap.remove("INBOX", "<auditors@example.com>");
    await imap.close();
  });

  it("sends after Approve over XOAUTH2; a backup holds no token; deleting the account revokes it", async () => {
    const { id } = await signedInAccount();
    await t.jobs.idle();
    const conversationId = (await api("POST", "/api/conversations", { name: "Send" })).json().id as number;
    gemini.script(
      { functionCalls: [{ name: "sendEmail", args: { to: ["anna@example.com"], subject: "Board pack", body: "Anna, the pack is ready." } }] },
      { text: "Sent." },
    );
    const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content: "Tell Anna the pack is ready" });
    let approvals: { approvalId: string; risk: string; args: { from: string } }[] = [];
    for (let i = 0; i < 400 && approvals.length === 0; i++) {
      approvals = (await api("GET", "/api/approvals")).json().approvals;
      if (approvals.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(approvals[0]!.args.from).toBe("Erika Exec <exec@example.com>");
    expect(smtp.received).toEqual([]);
    // Anna's address is read in her mail: a card that says so asks its second confirmation (issue 47).
    const answer = await api("POST", `/api/approvals/${approvals[0]!.approvalId}`, {
      approved: true,
      ...(approvals[0]!.risk === "content-derived" ? { confirm: "content-derived" } : {}),
    });
    expect(answer.statusCode).toBe(200);
    expect(turnEvents((await turn).body).find(([event]) => event === "tool-result")![1].result).toEqual({
      success: true,
      message: "Sent to anna@example.com.",
    });
    expect(smtp.logins.at(-1)).toEqual({ method: "XOAUTH2", user: "exec@example.com" });
    expect(smtp.received[0]!.data).toMatch(/^From: Erika Exec <exec@example\.com>\r?$/m);

    // deleteMail over the same sign-in (decision 066): after Approve the mail is in Trash, logged in with a token.
    const report = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<report-1@example.com>").executeTakeFirstOrThrow();
    const deleting = (await api("POST", "/api/conversations", { name: "Delete" })).json().id as number;
    gemini.script({ functionCalls: [{ name: "deleteMail", args: { id: report.id } }] }, { text: "Deleted." });
    const loginsBefore = logins.length;
    const deleteTurn = api("POST", `/api/conversations/${deleting}/turn`, { content: "Delete the Harbour report 1 mail" });
    let card: { approvalId: string } | undefined;
    await expect.poll(async () => (card = (await api("GET", "/api/approvals")).json().approvals[0])).toBeDefined();
    expect((await api("POST", `/api/approvals/${card!.approvalId}`, { approved: true })).statusCode).toBe(200);
    expect(turnEvents((await deleteTurn).body).find(([event]) => event === "tool-result")![1].result).toMatchObject({
      success: true,
      message: expect.stringContaining('"Harbour report 1"'),
    });
    expect(logins.length).toBeGreaterThan(loginsBefore);
    for (const login of logins.slice(loginsBefore)) expect(login).not.toMatch(/^password:/);
    const imap = await dovecot.session();
    expect((await imap.messages("Trash")).map((message) => /^Subject: (.*)\r$/m.exec(message.raw)?.[1])).toEqual(["Harbour report 1"]);
    await imap.move("Trash", "INBOX", "<report-1@example.com>");
    await imap.close();

    const tokens = [...new Set(logins)];
    const backup = await zipTexts(await backupClient(t, cookie).exportZip());
    expect(backup).toContain("Company mail");
    for (const token of tokens) {
      expect(backup).not.toContain(token);
      expect((await api("GET", "/api/accounts")).body).not.toContain(token);
    }

    expect((await api("DELETE", `/api/accounts/${id}`)).json()).toEqual({ ok: true });
    expect(oauth.revocations.at(-1)).toEqual({ hint: "refresh_token" });
    for (const token of tokens) expect((await oauth.introspect(token)).active).toBe(false);
  });
});
