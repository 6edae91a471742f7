import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtp } from "../../test/smtp-test-server.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

// A company server whose login is not an e-mail address ("exec"), as issue 48 found it: a real Dovecot, and an SMTP
// server that refuses a sender that is not an address, as Postfix does ("501 5.1.7 Bad sender address syntax").
const installed = dovecotInstalled();
if (!installed) console.warn(DOVECOT_MISSING);

describe.skipIf(!installed)("the sender is an address, and Test connection tests sending", () => {
  let dovecot: DovecotServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gemini: FakeGemini;
  beforeAll(async () => {
    [dovecot, smtp, gemini] = await Promise.all([
      startDovecot({ user: "exec", password: "exec-password" }),
      startSmtp("exec", "exec-password"),
      startFakeGemini(),
    ]);
  });
  afterAll(async () => Promise.all([dovecot?.stop(), smtp?.close(), gemini?.close()]));

  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    gemini.reset();
    smtp.received.length = 0;
    t = await createTestApp({
      env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", GEMINI_API_KEY: "mail-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" },
    });
    cookie = await t.login();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const server = (port: number, password = "exec-password") => ({ host: "127.0.0.1", port, secure: false, user: "exec", password });
  const account = (extra: object = {}) => ({ kind: "mail", name: "Company mail", imap: server(dovecot.port), smtp: server(smtp.port), ...extra });

  it("Test connection checks receiving and sending, and names the refused step in words", async () => {
    const refused = (await api("POST", "/api/accounts/test", account())).json();
    expect(refused).toMatchObject({
      ok: false,
      problem: "sender",
      message: "Receiving works. Sending: the server refused the sender address exec: use your full e-mail address.",
      receiving: { ok: true },
      sending: { ok: false, problem: "sender" },
    });
    const wrongPassword = (await api("POST", "/api/accounts/test", { ...account(), smtp: server(smtp.port, "not-it") })).json();
    expect(wrongPassword.message).toBe(
      "Receiving works. Sending: the server refused the user name or password. Gmail and Microsoft 365 need an app password here, not your usual password.",
    );
    const fine = (await api("POST", "/api/accounts/test", account({ address: "exec@example.com" }))).json();
    expect(fine).toMatchObject({ ok: true, message: "Receiving works. Sending works." });
    // MAIL FROM then RSET: nothing was sent, nothing saved.
    expect(smtp.received).toEqual([]);
    expect((await api("GET", "/api/accounts")).json()).toEqual([]);
  });

  it("sends from Name <address> with the login apart, and a reply carries the whole References chain", async () => {
    const imap = await dovecot.session();
    await imap.append(
      "INBOX",
      mailMessage({
        from: "Anna Berg <anna@example.com>",
        to: "exec@example.com",
        subject: "Re: Re: Board pack",
        date: new Date(Date.now() - 86_400_000),
        messageId: "<third@example.com>",
        body: "Here is the final board pack.",
      }).replace("MIME-Version", "References: <first@example.com> <second@example.com>\r\nMIME-Version"),
    );
    await imap.close();
    const created = (await api("POST", "/api/accounts", account({ address: "exec@example.com", displayName: "Erika Exec" }))).json();
    expect(created).toMatchObject({ address: "exec@example.com", displayName: "Erika Exec", imap: { user: "exec" }, smtp: { user: "exec" } });
    await t.jobs.idle();
    const original = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<third@example.com>").executeTakeFirstOrThrow();

    const conversationId = (await api("POST", "/api/conversations", { name: "Reply" })).json().id as number;
    gemini.script(
      {
        functionCalls: [{ name: "sendEmail", args: { to: ["anna@example.com"], subject: "Re: Board pack", body: "Thank you, Anna.", inReplyTo: original.id } }],
      },
      { text: "Sent." },
    );
    const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content: "Thank Anna" });
    let approvals: { approvalId: string; risk: string; args: { from: string } }[] = [];
    for (let i = 0; i < 400 && approvals.length === 0; i++) {
      approvals = (await api("GET", "/api/approvals")).json().approvals;
      if (approvals.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // The card shows who it is from, as it will be sent.
    expect(approvals[0]!.args.from).toBe("Erika Exec <exec@example.com>");
    // Anna's address is in her mail only: the card is content-derived and the user confirms, as on screen (decision 062).
    const confirm = approvals[0]!.risk === "content-derived" ? { confirm: "content-derived" } : {};
    expect((await api("POST", `/api/approvals/${approvals[0]!.approvalId}`, { approved: true, ...confirm })).statusCode).toBe(200);
    expect(turnEvents((await turn).body).find(([event]) => event === "tool-result")![1].result).toEqual({
      success: true,
      message: "Sent to anna@example.com.",
    });
    const [mail] = smtp.received;
    expect(mail!.from).toBe("exec@example.com");
    expect(mail!.data).toMatch(/^From: Erika Exec <exec@example\.com>\r?$/m);
    expect(mail!.data).toMatch(/^In-Reply-To: <third@example\.com>\r?$/m);
    expect(mail!.data).toMatch(/^References: <first@example\.com> <second@example\.com> <third@example\.com>\r?$/m);
  });

  it("an account made without an address neither sends nor drafts until one is set, and says so", async () => {
    const id = (await api("POST", "/api/accounts", account())).json().id as number;
    await t.jobs.idle();
    expect((await api("GET", "/api/accounts")).json()[0]).toMatchObject({ address: null });
    /** A tool call in a turn: its card approved if one comes (a draft after mail was read asks too), its result. */
    const run = async (call: { name: string; args: Record<string, unknown> }) => {
      const conversationId = (await api("POST", "/api/conversations", { name: "Mail" })).json().id as number;
      gemini.script({ functionCalls: [call] }, { text: "Done." });
      let finished = false;
      const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content: "Write to Anna" }).finally(() => (finished = true));
      while (!finished) {
        const [approval] = (await api("GET", "/api/approvals")).json().approvals as { approvalId: string }[];
        if (approval) await api("POST", `/api/approvals/${approval.approvalId}`, { approved: true, confirm: "content-derived" });
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return turnEvents((await turn).body).find(([event]) => event === "tool-result")![1].result;
    };
    const hello = { to: ["anna@example.com"], subject: "Hello", body: "Hello Anna." };
    expect(await run({ name: "sendEmail", args: hello })).toEqual({
      success: false,
      message: "The e-mail was not sent. Company mail has no sender address: add your e-mail address to it in Settings > Accounts.",
    });
    expect(await run({ name: "draftEmail", args: hello })).toEqual({
      success: false,
      message: "The draft was not saved. Company mail has no sender address: add your e-mail address to it in Settings > Accounts.",
    });
    expect(smtp.received).toEqual([]);
    expect((await api("PATCH", `/api/accounts/${id}`, { address: "exec@example.com", displayName: "Erika Exec" })).json()).toMatchObject({
      address: "exec@example.com",
    });
    expect(await run({ name: "sendEmail", args: hello })).toEqual({ success: true, message: "Sent to anna@example.com." });
    expect(smtp.received[0]!.data).toMatch(/^From: Erika Exec <exec@example\.com>\r?$/m);
    expect(await run({ name: "draftEmail", args: hello })).toMatchObject({ success: true, draft: { from: "Erika Exec <exec@example.com>" } });
    const session = await dovecot.session();
    const drafts = await session.messages("Drafts");
    await session.close();
    expect(drafts.at(-1)!.raw).toMatch(/^From: Erika Exec <exec@example\.com>\r?$/m);
  });
});
