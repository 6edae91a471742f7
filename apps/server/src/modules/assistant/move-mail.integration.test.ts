import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectImap } from "../../providers/mail/imap-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";
import { MOVE_MAIL_TEXTS } from "./tools/move-mail-tools.ts";

// deleteMail and archiveMail (issue 47, decision 066) against a real Dovecot: the card, Decline, Approve.
const installed = dovecotInstalled();
if (!installed) console.warn(DOVECOT_MISSING);

const DAY_MS = 86_400_000;
const sent = new Date(Date.now() - DAY_MS);
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }).format(sent);
const invoice = mailMessage({
  from: "Bob Miller <bob@example.com>",
  to: "Exec <exec@example.com>",
  subject: "December invoice",
  date: sent,
  messageId: "<invoice@example.com>",
  body: "The December invoice for the harbourfront lease is attached.",
});
const other = mailMessage({
  from: "Anna Berg <anna@example.com>",
  to: "Exec <exec@example.com>",
  subject: "Board pack",
  date: sent,
  messageId: "<board@example.com>",
  body: "The board pack for Thursday.",
});

describe.skipIf(!installed)("deleteMail and archiveMail behind a card, on a real Dovecot", () => {
  // Like most servers: folders marked \Trash and \Archive. The other is Gmail-like: "All Mail" (\All), no Trash.
  let dovecot: DovecotServer;
  let gmailLike: DovecotServer;
  let unmarked: DovecotServer;
  let gemini: FakeGemini;
  beforeAll(async () => {
    [dovecot, gmailLike, unmarked, gemini] = await Promise.all([
      startDovecot({
        user: "exec@example.com",
        password: "move-password",
        folders: [
          { name: "Trash", specialUse: "\\Trash" },
          { name: "Archive", specialUse: "\\Archive" },
        ],
      }),
      startDovecot({ user: "exec@example.com", password: "move-password", folders: [{ name: "All Mail", specialUse: "\\All" }] }),
      // No folder marked at all, Trash named as Outlook names it, and no archive.
      startDovecot({ user: "exec@example.com", password: "move-password", folders: [{ name: "Deleted Items" }] }),
      startFakeGemini(),
    ]);
  });
  afterAll(async () => Promise.all([dovecot?.stop(), gmailLike?.stop(), unmarked?.stop(), gemini?.close()]));

  let t: TestApp;
  let cookie: string;
  /** When set, the server reports a new UIDVALIDITY for every folder (as after a mailbox rebuilt on the server). */
  let validityChanged = false;
  beforeEach(async () => {
    gemini.reset();
    validityChanged = false;
    t = await createTestApp({
      env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", GEMINI_API_KEY: "mail-key", GEMINI_BASE_URL: gemini.baseUrl, SAGE_EMBEDDER: "none" },
      // The real IMAP client; only the UIDVALIDITY it reports can be changed.
      connectImap: async (server, rule) => {
        const connection = await connectImap(server, rule);
        return {
          ...connection,
          async openFolder(folder) {
            const opened = await connection.openFolder(folder);
            return validityChanged ? { ...opened, uidValidity: `${opened.uidValidity}1` } : opened;
          },
        };
      },
    });
    cookie = await t.login();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A mailbox holding the invoice and one other mail, connected and synced; answers the invoice's id and the account's. */
  async function connect(server: DovecotServer) {
    const imap = await server.session();
    for (const folder of ["INBOX", "Trash", "Archive", "All Mail"]) {
      for (const message of await imap.messages(folder).catch(() => [])) {
        const id = /^Message-ID: (.*)\r$/m.exec(message.raw)?.[1];
        if (id) await imap.remove(folder, id);
      }
    }
    await imap.append("INBOX", invoice);
    await imap.append("INBOX", other);
    const imapServer = { host: server.host, port: server.port, secure: false, user: server.user, password: server.password };
    const created = await api("POST", "/api/accounts", { kind: "mail", name: "Work mail", imap: imapServer });
    expect(created.statusCode).toBe(201);
    await t.jobs.idle();
    const row = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<invoice@example.com>").executeTakeFirstOrThrow();
    return { imap, mailId: row.id, accountId: created.json().id as number };
  }

  /** Subjects of the mail in a folder on the server. */
  const subjects = async (imap: Awaited<ReturnType<DovecotServer["session"]>>, folder: string) =>
    (await imap.messages(folder)).map((message) => /^Subject: (.*)\r$/m.exec(message.raw)?.[1]);
  /** Whether SAGE's search finds the invoice's words. */
  const searchFindsInvoice = async () =>
    JSON.stringify((await api("POST", "/api/search", { query: "harbourfront lease", limit: 10 })).json()).includes("harbourfront");

  /** One chat turn in which the model calls the tool on the mail; the card is answered with `approved`. */
  async function askTo(
    name: "deleteMail" | "archiveMail",
    mailId: number,
    approved: boolean,
    content = `${name === "deleteMail" ? "Delete" : "Archive"} Bob's December invoice mail`,
  ) {
    const conversationId = (await api("POST", "/api/conversations", { name: "Mail" })).json().id as number;
    gemini.script({ functionCalls: [{ name, args: { id: mailId } }] }, { text: "Done." });
    const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content });
    let card: { approvalId: string; name: string; risk?: string; summary?: string[] } | undefined;
    await expect.poll(async () => (card = (await api("GET", "/api/approvals")).json().approvals[0])).toBeDefined();
    expect((await api("POST", `/api/approvals/${card!.approvalId}`, { approved })).statusCode).toBe(200);
    const events = turnEvents((await turn).body);
    return { card: card!, result: events.find(([event]) => event === "tool-result")![1].result };
  }

  it.each([
    { name: "deleteMail" as const, folder: "Trash", line: `Move to Trash: the mail from Bob Miller, "December invoice", ${day}`, done: "Moved to Trash" },
    { name: "archiveMail" as const, folder: "Archive", line: `Archive: the mail from Bob Miller, "December invoice", ${day}`, done: "Archived" },
  ])("$name: the card names the mail; Decline leaves it, Approve moves it to $folder and out of SAGE", async ({ name, folder, line, done }) => {
    const { imap, mailId, accountId } = await connect(dovecot);
    expect(await searchFindsInvoice()).toBe(true);

    const declined = await askTo(name, mailId, false);
    // The user named the mail: a calm card, in words.
    expect(declined.card).toMatchObject({ name, risk: "asked" });
    expect(declined.card.summary![0]).toBe(line);
    expect(declined.card.summary![1]).toBe("Now in INBOX of Work mail.");
    expect(declined.result).toMatchObject({ success: false, declined: true, message: MOVE_MAIL_TEXTS.declined(name === "deleteMail" ? "trash" : "archive") });
    expect(await subjects(imap, "INBOX")).toEqual(["December invoice", "Board pack"]);
    expect(await subjects(imap, folder)).toEqual([]);
    expect(await searchFindsInvoice()).toBe(true);

    const approved = await askTo(name, mailId, true);
    expect(approved.result).toEqual({
      success: true,
      message: `${done}: the mail from Bob Miller, "December invoice", ${day} is now in ${folder} of Work mail.`,
    });
    expect(await subjects(imap, "INBOX")).toEqual(["Board pack"]);
    expect(await subjects(imap, folder)).toEqual(["December invoice"]);
    // Gone from SAGE at once, and the next sync does not bring it back (INBOX is the folder it syncs).
    expect(await searchFindsInvoice()).toBe(false);
    expect((await api("POST", `/api/accounts/${accountId}/sync`)).statusCode).toBe(202);
    await t.jobs.idle();
    expect(await searchFindsInvoice()).toBe(false);
    // The same id again: no such mail any more, and no card.
    gemini.script({ functionCalls: [{ name, args: { id: mailId } }] }, { text: "It is gone." });
    const conversationId = (await api("POST", "/api/conversations", { name: "Again" })).json().id as number;
    const again = turnEvents((await api("POST", `/api/conversations/${conversationId}/turn`, { content: `${name} it again` })).body);
    expect(again.some(([event]) => event === "approval-required")).toBe(false);
    expect(again.find(([event]) => event === "tool-result")![1].result).toEqual({
      success: false,
      message: "No such message: use an id that searchMail gave.",
    });
    await imap.close();
  });

  it("Gmail-like: archiving moves to the folder marked \\All; with no Trash folder at all, Approve deletes for good", async () => {
    const { imap, mailId } = await connect(gmailLike);
    const archived = await askTo("archiveMail", mailId, true);
    expect(archived.result).toMatchObject({ success: true, message: expect.stringContaining("is now in All Mail of Work mail.") });
    expect(await subjects(imap, "INBOX")).toEqual(["Board pack"]);
    expect(await subjects(imap, "All Mail")).toEqual(["December invoice"]);

    const board = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<board@example.com>").executeTakeFirstOrThrow();
    const deleted = await askTo("deleteMail", board.id, true, "Delete Anna's board pack mail");
    expect(deleted.card.summary![2]).toBe("Your mail program can take it back from Trash (an account with no Trash folder at all deletes it for good).");
    expect(deleted.result).toEqual({
      success: true,
      message: `Deleted for good: the mail from Anna Berg, "Board pack", ${day}. Work mail has no Trash folder.`,
    });
    expect(await subjects(imap, "INBOX")).toEqual([]);
    expect(await subjects(imap, "All Mail")).toEqual(["December invoice"]);
    await imap.close();
  });

  it("unmarked folders: Trash found by its name, an Archive made; another user's id is refused with no card", async () => {
    const { imap, mailId } = await connect(unmarked);
    const board = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<board@example.com>").executeTakeFirstOrThrow();

    // Another user of this SAGE, with a mail account of their own, cannot reach the first user's mail by its id.
    const stranger = await t.loginAsNewUser();
    const nowhere = { host: "127.0.0.1", port: 9, secure: false, user: "other@example.com", password: "x" };
    const asStranger = (method: "POST", url: string, payload: object) => t.app.inject({ method, url, headers: { cookie: stranger.cookie }, payload });
    expect((await asStranger("POST", "/api/accounts", { kind: "mail", name: "Other mail", imap: nowhere })).statusCode).toBe(201);
    await t.jobs.idle();
    const conversationId = (await asStranger("POST", "/api/conversations", { name: "Theirs" })).json().id as number;
    gemini.script({ functionCalls: [{ name: "deleteMail", args: { id: mailId } }] }, { text: "No." });
    const theirs = turnEvents((await asStranger("POST", `/api/conversations/${conversationId}/turn`, { content: "Delete Bob's December invoice mail" })).body);
    expect(theirs.some(([event]) => event === "approval-required")).toBe(false);
    expect(theirs.find(([event]) => event === "tool-result")![1].result).toEqual({
      success: false,
      message: "No such message: use an id that searchMail gave.",
    });
    expect(await subjects(imap, "INBOX")).toEqual(["December invoice", "Board pack"]);

    expect((await askTo("deleteMail", mailId, true)).result).toMatchObject({
      success: true,
      message: expect.stringContaining("is now in Deleted Items of Work mail."),
    });
    expect((await askTo("archiveMail", board.id, true, "Archive Anna's board pack mail")).result).toMatchObject({
      success: true,
      message: expect.stringContaining("is now in Archive of Work mail."),
    });
    expect(await subjects(imap, "INBOX")).toEqual([]);
    expect(await subjects(imap, "Deleted Items")).toEqual(["December invoice"]);
    expect(await subjects(imap, "Archive")).toEqual(["Board pack"]);
    await imap.close();
  });

  it("says in plain words what did not happen: a mail moved behind SAGE's back, a rebuilt mailbox, a password changed", async () => {
    const { imap, mailId, accountId } = await connect(dovecot);
    // The user moved the invoice away in another mail program; SAGE has not synced since.
    await imap.move("INBOX", "Archive", "<invoice@example.com>");
    expect((await askTo("deleteMail", mailId, true)).result).toEqual({
      success: false,
      message: "The mail was not deleted. It is no longer in INBOX on the mail server: it was moved or deleted there.",
    });
    expect(await subjects(imap, "Archive")).toEqual(["December invoice"]);
    expect(await subjects(imap, "Trash")).toEqual([]);
    expect(await searchFindsInvoice()).toBe(false);

    // The mailbox was rebuilt on the server since the last sync: its UIDs may now mean other mail, so none moves.
    const board = await t.store.db.selectFrom("mailMessages").select("id").where("messageId", "=", "<board@example.com>").executeTakeFirstOrThrow();
    validityChanged = true;
    expect((await askTo("deleteMail", board.id, true, "Delete Anna's board pack mail")).result).toEqual({
      success: false,
      message: "The mail was not deleted. SAGE's copy of Work mail is out of date; ask again after its next sync.",
    });
    expect(await subjects(imap, "INBOX")).toEqual(["Board pack"]);
    validityChanged = false;

    // The password changed on the server's side: nothing moves, and the reason is the step, not the server's reply.
    const imapServer = { host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: "not-the-password" };
    await t.app.inject({ method: "PATCH", url: `/api/accounts/${accountId}`, headers: { cookie }, payload: { imap: imapServer } });
    await t.jobs.idle();
    expect((await askTo("archiveMail", board.id, true, "Archive Anna's board pack mail")).result).toEqual({
      success: false,
      message:
        "The mail was not archived. The mail server refused the user name or password. Gmail and Microsoft 365 need an app password here, not your usual password.",
    });
    expect(await subjects(imap, "INBOX")).toEqual(["Board pack"]);
    await imap.close();
  });
});
