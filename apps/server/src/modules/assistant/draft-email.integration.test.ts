import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";
import { DRAFT_EMAIL_TEXTS } from "./tools/draft-email-tool.ts";

const mailDay = (date: Date) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(date);

const installed = dovecotInstalled();
if (!installed) console.warn(DOVECOT_MISSING);

describe.skipIf(!installed)("draftEmail saves into the real Dovecot's Drafts folder, asking nothing", () => {
  let dovecot: DovecotServer;
  let gemini: FakeGemini;
  beforeAll(async () => {
    [dovecot, gemini] = await Promise.all([startDovecot({ user: "exec@example.com", password: "draft-password" }), startFakeGemini()]);
  });
  afterAll(async () => Promise.all([dovecot?.stop(), gemini?.close()]));

  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await createTestApp({
      env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", GEMINI_API_KEY: "mail-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" },
    });
    cookie = await t.login();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  it("a reply drafted by the assistant lands in Drafts, flagged \\Draft, with its thread headers; nothing is sent or asked", async () => {
    const imap = await dovecot.session();
    const received = new Date(Date.now() - 86_400_000);
    await imap.append(
      "INBOX",
      mailMessage({
        from: "Anna Berg <anna@example.com>",
        to: "Exec <exec@example.com>",
        subject: "Board pack",
        date: received,
        messageId: "<board-pack@example.com>",
        body: "Could you send me your comments on the board pack?",
      }),
    );
    // No SMTP server at all: a draft needs none.
    const imapServer = { host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password };
    expect((await api("POST", "/api/accounts", { kind: "mail", name: "Work mail", imap: imapServer })).statusCode).toBe(201);
    await t.jobs.idle();
    const original = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<board-pack@example.com>").executeTakeFirstOrThrow();

    const conversationId = (await api("POST", "/api/conversations", { name: "Drafts" })).json().id as number;
    gemini.script(
      { functionCalls: [{ name: "searchMail", args: { from: "anna" } }] },
      {
        functionCalls: [
          {
            name: "draftEmail",
            args: {
              to: ["Anna Berg <anna@example.com>"],
              cc: ["cfo@example.com"],
              subject: "Re: Board pack",
              body: "Anna, my comments are on page 4.",
              inReplyTo: original.id,
            },
          },
        ],
      },
      { text: "The draft is in your Drafts folder." },
    );
    const events = turnEvents(
      (await api("POST", `/api/conversations/${conversationId}/turn`, { content: "Draft a reply to Anna, copying cfo@example.com" })).body,
    );
    // Anna is the sender of the mail read, and the user named her; the copy goes to an address the user typed (issue 47).
    expect(events.some(([event]) => event === "approval-required")).toBe(false);
    const result = events.filter(([event]) => event === "tool-result")[1]![1].result;
    expect(result).toEqual({
      success: true,
      message: DRAFT_EMAIL_TEXTS.saved("Drafts", "Work mail"),
      draft: {
        account: "Work mail",
        folder: "Drafts",
        from: "exec@example.com",
        openUrl: null,
        to: ["anna@example.com"],
        cc: ["cfo@example.com"],
        subject: "Re: Board pack",
        // The subject is the mail's (issue 47: a draft keeps where its values came from; the chat says so under it).
        fromContent: ["subject"],
        // Named by its day in UTC ("5 Dec"): yesterday's, whatever day the test runs.
        derivedFrom: { messageId: expect.any(Number), title: `the mail from Anna Berg <anna@example.com> of ${mailDay(received)}` },
      },
    });

    const drafts = await imap.messages("Drafts");
    await imap.close();
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.flags).toEqual(expect.arrayContaining(["\\Draft", "\\Seen"]));
    const raw = drafts[0]!.raw;
    expect(raw).toMatch(/^From: exec@example\.com\r$/m);
    expect(raw).toMatch(/^To: anna@example\.com\r$/m);
    expect(raw).toMatch(/^Cc: cfo@example\.com\r$/m);
    expect(raw).toMatch(/^Subject: Re: Board pack\r$/m);
    expect(raw).toMatch(/^In-Reply-To: <board-pack@example\.com>\r$/m);
    expect(raw).toMatch(/^References: <board-pack@example\.com>\r$/m);
    expect(raw).toContain("Anna, my comments are on page 4.");
    // The saved turn keeps the result, so the chat shows it again after a reload.
    const saved = (await api("GET", `/api/conversations/${conversationId}/messages`)).json();
    expect(JSON.stringify(saved)).toContain('"folder":"Drafts"');
  });

  it("a server that refuses the login leaves no draft and says why in plain words", async () => {
    const imapServer = { host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password };
    await api("POST", "/api/accounts", { kind: "mail", name: "Work mail", imap: imapServer });
    await t.jobs.idle();
    // The password changed on the server's side after the account was connected.
    const id = (await api("GET", "/api/accounts")).json()[0].id as number;
    await t.app.inject({ method: "PATCH", url: `/api/accounts/${id}`, headers: { cookie }, payload: { imap: { ...imapServer, password: "old-one" } } });
    await t.jobs.idle();
    const conversationId = (await api("POST", "/api/conversations", { name: "Drafts" })).json().id as number;
    gemini.script({ functionCalls: [{ name: "draftEmail", args: { to: ["anna@example.com"], subject: "Hello", body: "Hi" } }] }, { text: "It failed." });
    const events = turnEvents((await api("POST", `/api/conversations/${conversationId}/turn`, { content: "Draft hello to anna@example.com" })).body);
    expect(events.find(([event]) => event === "tool-result")![1].result).toEqual({
      success: false,
      message:
        "The draft was not saved. The mail server refused the user name or password. Gmail and Microsoft 365 need an app password here, not your usual password.",
    });
  });
});
