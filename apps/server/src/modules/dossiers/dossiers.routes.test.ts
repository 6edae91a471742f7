import { DOSSIER_TEXTS } from "@sage/contracts/dossiers";
import { afterEach, describe, expect, it } from "vitest";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let clock = new Date("2026-11-24T09:00:00Z");
afterEach(async () => t?.close());

const ME = "me@example.com";
const minutes = (n: number) => new Date(clock.getTime() + n * 60_000).toISOString();
const eml = (from: string, to: string, subject: string, date: string, body: string) =>
  Buffer.from(`From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: ${new Date(date).toUTCString()}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`);

describe("meeting dossiers", () => {
  it("prepares a cited dossier 30 minutes before a meeting with two people, in its Meetings conversation, once", async () => {
    clock = new Date("2026-11-24T09:00:00Z");
    t = await createTestApp({ now: () => clock });
    const cookie = await t.login();
    const api = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const kb = knowledgeClient(t, cookie);
    const db = t.store.db;
    const at = clock.toISOString();
    const account = (kind: "mail" | "calendar", name: string, settings: object) =>
      db
        .insertInto("accounts")
        .values({ userId: 3, kind, name, settings: JSON.stringify(settings), secrets: null, status: "ok", createdAt: at, updatedAt: at })
        .returning("id")
        .executeTakeFirstOrThrow();
    const mailAccount = await account("mail", "Work", { imap: { user: ME } });
    const calendar = await account("calendar", "Work calendar", {});
    const mail = async (folder: string, from: string, to: string, subject: string, date: string, body: string) => {
      const upload = await kb.upload(
        { userId: 3, conversationId: 0 },
        { filename: `${subject}.eml`, content: eml(from, to, subject, date, body), type: "message/rfc822" },
      );
      expect(upload.statusCode, upload.body).toBeLessThan(300);
      const itemId = (upload.json() as { file: { id: number } }).file.id;
      await db
        .insertInto("mailMessages")
        .values({ accountId: mailAccount.id, userId: 3, folder, uid: itemId, messageId: null, subject, fromAddress: from, toAddress: to, date, itemId })
        .execute();
      return itemId;
    };
    await mail("INBOX", "Anna Berg <anna@acme.example>", ME, "Q3 budget", "2026-11-20T08:00:00.000Z", "Please bring the Q3 numbers to the review.");
    await mail("Sent", ME, "Anna Berg <anna@acme.example>", "Re: Q3 budget", "2026-11-21T08:00:00.000Z", "I will bring them.");
    const contract = await mail(
      "Sent",
      ME,
      "Ravi Patel <ravi@psc.example>",
      "Contract",
      "2026-11-22T08:00:00.000Z",
      "Ravi, please send the signed contract by Friday.",
    );
    await db
      .insertInto("commitments")
      .values({
        userId: 3,
        direction: "owed-to-me",
        kind: "request",
        owner: "Ravi Patel",
        counterparty: "me",
        what: "Send the signed contract",
        dueDate: "2026-11-27",
        quote: "Ravi, please send the signed contract by Friday.",
        sourceKind: "mail",
        itemId: contract,
        page: null,
        conversationId: null,
        messageId: null,
        sourceTitle: "Contract",
        sourceDate: "2026-11-22T08:00:00.000Z",
        reminderId: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    const event = async (title: string, startIn: number, attendees: string[]) => {
      const object = await db
        .insertInto("calendarObjects")
        .values({ accountId: calendar.id, href: title, ics: "BEGIN:VCALENDAR" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const row = await db
        .insertInto("calendarEvents")
        .values({
          accountId: calendar.id,
          userId: 3,
          objectId: object.id,
          uid: `${title}@test`,
          title,
          location: "",
          startAt: minutes(startIn),
          endAt: minutes(startIn + 60),
          allDay: 0,
          timeZone: "",
          attendees: JSON.stringify(attendees),
          busy: 1,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const review = await event("Budget review", 45, [ME, "anna@acme.example", "Ravi Patel <ravi@psc.example>"]);
    const focus = await event("Focus time", 20, [ME]);
    const stranger = await event("Coffee with Zoe", 200, [ME, "zoe@elsewhere.example"]);

    expect((await api("GET", "/api/settings/dossiers")).json()).toEqual({ minutesBefore: 30 });
    // 45 minutes ahead: not yet. 15 minutes later it is due (30 before); an event with no one else never is.
    expect(await t.dossiers.prepareDue()).toBe(0);
    expect((await api("GET", `/api/dossiers?eventId=${review}`)).json()).toEqual({ error: DOSSIER_TEXTS.noDossier, code: "dossier_not_found" });
    clock = new Date(clock.getTime() + 15 * 60_000);
    expect(await t.dossiers.prepareDue()).toBe(1);
    expect(await t.dossiers.prepareDue()).toBe(0);

    const dossier = (await api("GET", `/api/dossiers?eventId=${review}`)).json();
    expect(dossier).toMatchObject({ eventId: review, preparedAt: clock.toISOString() });
    const texts = dossier.lines.map((line: { text: string }) => line.text);
    expect(texts).toEqual([
      "Anna Berg; last in touch 21 Nov.",
      'Last mail with Anna Berg: "Re: Q3 budget", 21 Nov.',
      "Ravi Patel; last in touch 22 Nov.",
      'Last mail with Ravi Patel: "Contract", 22 Nov.',
      "Ravi Patel owes you: Send the signed contract (due 2026-11-27).",
    ]);
    for (const line of dossier.lines) expect(line.citations.length).toBeGreaterThan(0);
    expect(dossier.lines[4].citations[0]).toMatchObject({ fileId: contract, content: "Ravi, please send the signed contract by Friday." });
    expect(dossier.lines[1].from).toBeDefined();

    const conversation = (await api("GET", "/api/conversations")).json().find((entry: { id: number }) => entry.id === dossier.conversationId);
    expect(conversation.name).toBe("Meetings: Budget review");
    const messages = (await api("GET", `/api/conversations/${dossier.conversationId}/messages`)).json();
    expect(messages).toHaveLength(1);
    expect(messages[0].content).toContain("- Ravi Patel owes you: Send the signed contract (due 2026-11-27). [5]");
    expect(messages[0].citations).toHaveLength(5);

    // "Prepare now" for someone SAGE knows nothing about: an empty dossier says so. Focus time has no one to brief on.
    const empty = await api("POST", "/api/dossiers", { eventId: stranger });
    expect(empty.json()).toMatchObject({ eventId: stranger, lines: [] });
    const emptyMessages = (await api("GET", `/api/conversations/${empty.json().conversationId}/messages`)).json();
    expect(emptyMessages[0].content).toContain(DOSSIER_TEXTS.empty);
    expect((await api("GET", `/api/dossiers?eventId=${focus}`)).statusCode).toBe(404);
    expect((await api("POST", "/api/dossiers", { eventId: 987654 })).json()).toEqual({ error: DOSSIER_TEXTS.eventNotFound, code: "event_not_found" });
  });

  it("takes the lead time and calendars, refusing bad values with the contract's sentences", async () => {
    t = await createTestApp({ now: () => clock });
    const cookie = await t.login();
    const api = (method: "GET" | "PUT", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    expect((await api("PUT", "/api/settings/dossiers", { minutesBefore: 0 })).json()).toEqual({
      error: DOSSIER_TEXTS.minutesInvalid,
      code: "validation_error",
    });
    expect((await api("GET", "/api/dossiers?eventId=abc")).json()).toEqual({ error: DOSSIER_TEXTS.eventIdInvalid, code: "validation_error" });
    expect((await api("GET", "/api/dossiers?eventId=1e300")).json()).toEqual({ error: DOSSIER_TEXTS.eventIdInvalid, code: "validation_error" });
    expect((await api("PUT", "/api/settings/dossiers", { minutesBefore: 60, calendars: [4] })).json()).toEqual({ minutesBefore: 60, calendars: [4] });
    expect((await api("PUT", "/api/settings/dossiers", { minutesBefore: 45 })).json()).toEqual({ minutesBefore: 45 });
  });
});
