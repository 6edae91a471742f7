import { figure, percentile, round } from "../lib/figure.mjs";
import { createTestApp } from "../../apps/server/src/test/test-app.ts";

const ME = "me@example.com";
const DAY = 86_400_000;

/**
 * Meeting dossiers (issue 53): `dossier.p95_ms`, the time POST /api/dossiers takes to prepare (again) the dossier of a
 * meeting with a person the user has 1,000 mails with (half sent, half received; 1 in 20 with an attachment), among
 * 5,000 mails with 100 other people, 20 open commitments with the person and an invitation naming a document. No
 * model is involved (dossiers are assembled, decision 097), so the figure is the whole time. In-process app on
 * SQLite; the first call (which builds the people pages from the 6,000 mails) is reported apart.
 */
export async function dossier({ quick }: { quick: boolean }) {
  const calls = quick ? 20 : 60;
  const start = new Date("2026-11-24T09:00:00Z");
  const t = await createTestApp({ env: { SAGE_EMBEDDER: "none" }, now: () => start });
  try {
    const cookie = await t.login();
    const db = t.store.db;
    const at = start.toISOString();
    const account = async (kind: "mail" | "calendar", settings: object) =>
      (
        await db
          .insertInto("accounts")
          .values({ userId: 3, kind, name: kind, settings: JSON.stringify(settings), secrets: null, status: "ok", createdAt: at, updatedAt: at })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const mailAccount = await account("mail", { imap: { user: ME } });
    const calendar = await account("calendar", {});
    const anna = "Anna Berg <anna@acme.example>";
    /** A ready knowledge item (a mail, its attachments folder, an attachment); answers its id. */
    const item = async (type: "file" | "folder", path: string, parentId: number | null, mimeType: string | null = null) =>
      (
        await db
          .insertInto("knowledgeItems")
          .values({
            userId: 3,
            conversationId: null,
            parentId,
            type,
            name: path.slice(path.lastIndexOf("/") + 1),
            path,
            mimeType,
            url: null,
            storageKey: null,
            contentHash: null,
            statusReason: null,
            madeFrom: null,
            status: "ready",
            createdAt: at,
            updatedAt: at,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    let uid = 0;
    const mail = async (from: string, to: string, subject: string, date: string, attachment: boolean) => {
      uid++;
      const itemId = await item("file", `/${subject} ${uid}.eml`, null, "message/rfc822");
      const folder = from === ME ? "Sent" : "INBOX";
      await db
        .insertInto("mailMessages")
        .values({ accountId: mailAccount, userId: 3, folder, uid, messageId: `<m${uid}@bench>`, subject, fromAddress: from, toAddress: to, date, itemId })
        .execute();
      if (!attachment) return;
      const attachments = await item("folder", `/${subject} ${uid}.eml attachments`, null);
      await item("file", `/${subject} ${uid}.eml attachments/Figures ${uid}.xlsx`, attachments);
    };
    for (let index = 0; index < 1000; index++) {
      const date = new Date(start.getTime() - (index + 1) * (DAY / 4)).toISOString();
      if (index % 2 === 0) await mail(ME, anna, `Budget ${index}`, date, index % 20 === 0);
      else await mail(anna, ME, `Re: Budget ${index}`, date, index % 20 === 1);
    }
    for (let index = 0; index < 5000; index++) {
      const other = `Person ${index % 100} <p${index % 100}@other.example>`;
      const date = new Date(start.getTime() - (index + 1) * (DAY / 20)).toISOString();
      await mail(index % 3 === 0 ? ME : other, index % 3 === 0 ? other : ME, `Topic ${index}`, date, false);
    }
    for (let index = 0; index < 20; index++) {
      await db
        .insertInto("commitments")
        .values({
          userId: 3,
          direction: index % 2 ? "mine" : "owed-to-me",
          kind: "request",
          owner: "Anna Berg",
          counterparty: "me",
          what: `Deliverable ${index}`,
          dueDate: "2026-12-01",
          quote: `Please send deliverable ${index}.`,
          sourceKind: "mail",
          itemId: 1,
          page: null,
          conversationId: null,
          messageId: null,
          sourceTitle: "Budget 0",
          sourceDate: at,
          reminderId: null,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
    }
    const object = await db
      .insertInto("calendarObjects")
      .values({ accountId: calendar, href: "review", ics: "BEGIN:VCALENDAR" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const event = await db
      .insertInto("calendarEvents")
      .values({
        accountId: calendar,
        userId: 3,
        objectId: object.id,
        uid: "review@bench",
        title: "Budget review with Anna",
        location: "",
        startAt: new Date(start.getTime() + 3_600_000).toISOString(),
        endAt: new Date(start.getTime() + 7_200_000).toISOString(),
        allDay: 0,
        timeZone: "",
        attendees: JSON.stringify([ME, anna]),
        busy: 1,
        description: "Agenda: the figures in Figures 1.xlsx and the hiring plan.",
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    const prepare = async () => {
      const began = performance.now();
      const response = await t.app.inject({ method: "POST", url: "/api/dossiers", headers: { cookie }, payload: { eventId: event.id } });
      const ms = performance.now() - began;
      if (response.statusCode !== 200) throw new Error(`POST /api/dossiers answered ${response.statusCode}: ${response.body}`);
      return { ms, lines: (response.json() as { lines: unknown[] }).lines.length };
    };
    const first = await prepare();
    const times: number[] = [];
    let lines = 0;
    for (let index = 0; index < calls; index++) {
      const run = await prepare();
      times.push(run.ms);
      lines = run.lines;
    }
    return [
      figure({
        name: "dossier.p95_ms",
        value: percentile(times, 95),
        unit: "ms",
        limit: 2000,
        better: "lower",
        target: "<= 2000 ms (issue 53, model time excluded: no model is used)",
        params: {
          calls,
          mailsWithPerson: 1000,
          otherMails: 5000,
          lines,
          p50Ms: round(percentile(times, 50), 1),
          maxMs: round(Math.max(...times), 1),
          firstCallMs: round(first.ms, 1),
        },
      }),
    ];
  } finally {
    await t.close();
  }
}
