import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { DOVECOT_MISSING, dovecotInstalled, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtp } from "../../test/smtp-test-server.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

const ME = "exec@example.com";
const SAGE_ADDRESS = "exec+sage@example.com";
const PASSWORD = "imap-app-password";

/** A mail as it arrives in the INBOX (appended behind SAGE's back, as a delivery would). */
const mail = (fields: { from: string; to: string; subject: string; body: string; id: string }) =>
  [
    `From: ${fields.from}`,
    `To: ${fields.to}`,
    `Subject: ${fields.subject}`,
    `Message-ID: <${fields.id}@example.com>`,
    "Date: Fri, 27 Nov 2026 08:00:00 +0100",
    "Content-Type: text/plain; charset=utf-8",
    "",
    fields.body,
    "",
  ].join("\r\n");

describe.skipIf(!dovecotInstalled())(`the e-mail channel against Dovecot and a real SMTP server${dovecotInstalled() ? "" : ` (${DOVECOT_MISSING})`}`, () => {
  let dovecot: DovecotServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gemini: FakeGemini;
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    [dovecot, smtp, gemini] = await Promise.all([startDovecot({ user: ME, password: PASSWORD }), startSmtp(ME, PASSWORD), startFakeGemini()]);
    t = await createTestApp({
      env: {
        SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1",
        GEMINI_API_KEY: "mail-key",
        GEMINI_BASE_URL: gemini.baseUrl,
        SAGE_EMBEDDER: "none",
        SAGE_PUBLIC_URL: "https://sage.example.com",
      },
    });
    cookie = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([dovecot?.stop(), smtp?.close(), gemini?.close()]);
  });

  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const channels = async () => (await api("GET", "/api/channels")).json().channels;
  const mailsTo = (address: string) => smtp.received.filter((received) => received.to.includes(address));
  /** A received mail with quoted-printable's soft line breaks ("=" at a line's end) undone. */
  const unfolded = (data: string) => data.replace(/=\r?\n/g, "");

  it("pairs by the code as a subject, answers only the paired address over SMTP in the thread, and never approves by mail", async () => {
    const server = { host: "127.0.0.1", secure: false, user: ME, password: PASSWORD };
    const account = await api("POST", "/api/accounts", {
      kind: "mail",
      name: "Work mail",
      imap: { ...server, port: dovecot.port },
      smtp: { ...server, port: smtp.port },
      folders: ["Sent"],
    });
    expect(account.statusCode, account.body).toBe(201);
    const accountId = account.json().id as number;
    expect((await api("POST", "/api/channels", { kind: "email", accountId: 999, address: SAGE_ADDRESS })).json()).toMatchObject({
      error: CHANNEL_TEXTS.accountNotFound,
    });
    const created = await api("POST", "/api/channels", { kind: "email", accountId, address: SAGE_ADDRESS.toUpperCase() });
    expect(created.statusCode, created.body).toBe(201);
    const { pairingCode, pairingHint } = created.json();
    expect(pairingHint).toBe(`Write to ${SAGE_ADDRESS} from your own address with ${pairingCode} as the subject.`);
    const session = await dovecot.session();

    // Not to SAGE's address: the user's own mail, left alone. A stranger's code attempt: refused, counted, never answered.
    await session.append("INBOX", mail({ from: "anna@example.com", to: ME, subject: "Lunch?", body: "Are you free?", id: "lunch" }));
    await session.append("INBOX", mail({ from: "mallory@evil.example", to: SAGE_ADDRESS, subject: "ABCDEFGH", body: "let me in", id: "m1" }));
    await expect.poll(async () => (await channels())[0].refused.count).toBe(1);
    await session.append("INBOX", mail({ from: `Exec <${ME}>`, to: SAGE_ADDRESS, subject: pairingCode, body: "", id: "pair" }));
    await expect.poll(async () => (await channels())[0]).toMatchObject({ status: "paired", chat: { title: `Exec <${ME}>` } });
    await expect.poll(() => mailsTo(ME).length).toBe(1);
    expect(mailsTo("mallory@evil.example")).toEqual([]);
    expect(mailsTo(ME)[0]!.from).toBe(SAGE_ADDRESS);

    // A question: the whole mail reaches the model as an attached file, never as the user's own words.
    gemini.script({ text: "Thursday: the **board meeting** at 10:00." });
    await session.append("INBOX", mail({ from: ME, to: SAGE_ADDRESS, subject: "Thursday", body: "What is on Thursday?\r\n\r\nThanks", id: "q1" }));
    await expect.poll(() => mailsTo(ME).length).toBe(2);
    const userTurn = gemini.requests.find((request) => request.action === "streamGenerateContent")!.body.contents.at(-1).parts[0].text as string;
    expect(userTurn.startsWith(`${CHANNEL_TEXTS.emailTurn}\n\n[Attached file: E-mail from ${ME}.eml]`)).toBe(true);
    expect(userTurn).toContain("What is on Thursday?");
    const answer = unfolded(mailsTo(ME)[1]!.data);
    expect(answer).toMatch(/^Subject: Re: Thursday\r?$/m);
    expect(answer).toMatch(/^In-Reply-To: <q1@example\.com>\r?$/m);
    expect(answer).toContain("Thursday: the board meeting at 10:00.");

    // A send it asks for is carded with a link to SAGE, no reply approves it, and Decline in SAGE sends nothing.
    gemini.script(
      { functionCalls: [{ name: "sendEmail", args: { to: ["anna@example.com"], subject: "Budget", body: "I agree." } }] },
      { text: "I did not send it." },
    );
    await session.append("INBOX", mail({ from: ME, to: SAGE_ADDRESS, subject: "Budget", body: "Tell anna@example.com I agree with the budget", id: "q2" }));
    // The address is in the mail only: never the user's own words, whoever the From: says wrote it.
    await expect
      .poll(async () => (await api("GET", "/api/approvals")).json().approvals[0])
      .toMatchObject({ name: "sendEmail", reason: expect.stringContaining(`anna@example.com appears only in E-mail from ${ME}.eml; you never wrote it.`) });
    await expect.poll(() => mailsTo(ME).length).toBe(3);
    const card = unfolded(mailsTo(ME)[2]!.data);
    expect(card).toContain("anna@example.com");
    expect(card).toContain(CHANNEL_TEXTS.approveInApp);
    expect(card).toContain(`https://sage.example.com/conversations/${(await channels())[0].conversationId}`);
    // "Approve" by mail is read as a message waiting for the card's answer, and approves nothing.
    await session.append("INBOX", mail({ from: ME, to: SAGE_ADDRESS, subject: "Re: approve", body: "Approve", id: "reply-approve" }));
    await expect.poll(() => mailsTo(ME).length).toBe(4);
    expect(unfolded(mailsTo(ME)[3]!.data)).toContain(CHANNEL_TEXTS.typingWhileWaiting);
    const [pending] = (await api("GET", "/api/approvals")).json().approvals;
    expect(pending).toMatchObject({ name: "sendEmail" });
    expect((await api("POST", `/api/approvals/${pending.approvalId}`, { approved: false })).statusCode).toBe(200);
    await expect.poll(() => mailsTo(ME).some((received) => received.data.includes("I did not send it."))).toBe(true);
    // The mail that waited is answered after the card, as a mail's content, never as an approval.
    await expect.poll(() => mailsTo(ME).length).toBe(6);
    expect((gemini.requests.at(-1)!.body.contents.at(-1).parts[0].text as string).startsWith(CHANNEL_TEXTS.emailTurn)).toBe(true);
    expect(mailsTo("anna@example.com")).toEqual([]);
    await session.close();
  });
});
