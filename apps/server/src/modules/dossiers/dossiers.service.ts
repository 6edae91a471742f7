import type { Kysely } from "kysely";
import { sql } from "kysely";
import { DOSSIER_TEXTS, type Dossier, type DossierSettings } from "@sage/contracts/dossiers";
import type { CitedLine } from "@sage/contracts/cited-lines";
import { notFound } from "../../http/app-error.ts";
import type { Database } from "../../store/schema.ts";
import type { ConversationMessagesPort, ConversationStarterPort } from "../conversations/conversations.module.ts";
import { partiesOf, type MailHeader, type PeoplePort } from "../people/people.module.ts";
import { dossierLines } from "./dossier-lines.ts";

const MAIL_COLUMNS = ["id", "accountId", "folder", "subject", "fromAddress", "toAddress", "date", "itemId"] as const;
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;
const DEFAULT_MINUTES = 30;

export interface DossierDeps {
  db: Kysely<Database>;
  people: PeoplePort;
  starter: Pick<ConversationStarterPort, "create" | "markUnread">;
  messages: Pick<ConversationMessagesPort, "appendMessages">;
  now: () => Date;
}

/** The dossier as one message: a heading, then each line with its citation marks. */
function messageOf(title: string, start: string, lines: CitedLine[]) {
  const citations = lines.flatMap((line) => line.citations);
  let n = 0;
  const body = lines.map((line) => `- ${line.text} ${line.citations.map(() => `[${++n}]`).join("")}`);
  return {
    content: [`## ${title}, ${start.slice(0, 16).replace("T", " ")} UTC`, "", ...(body.length ? body : [DOSSIER_TEXTS.empty])].join("\n"),
    citations: citations.map((citation, index) => ({ ...citation, n: index + 1 })),
  };
}

/**
 * Meeting dossiers (issue 53, decision 097): for an event with other people, what SAGE has on file about them, each
 * line cited, delivered as a message in the event's own "Meetings" conversation; prepared on request or
 * `minutesBefore` ahead by the round.
 */
export function createDossiersService(deps: DossierDeps) {
  const { db } = deps;

  const event = (userId: number, eventId: number) =>
    db
      .selectFrom("calendarEvents")
      .select(["id", "accountId", "title", "startAt", "attendees"])
      .where("userId", "=", userId)
      .where("id", "=", eventId)
      .executeTakeFirst();

  async function lastMailWith(userId: number, addresses: string[]): Promise<MailHeader | undefined> {
    if (addresses.length === 0) return undefined;
    return db
      .selectFrom("mailMessages")
      .select(MAIL_COLUMNS)
      .where("userId", "=", userId)
      .where((eb) =>
        eb.or(
          addresses.flatMap((address) => [
            eb(sql`lower(from_address)`, "like", sql`${likePattern(address)} ESCAPE '\\'`),
            eb(sql`lower(to_address)`, "like", sql`${likePattern(address)} ESCAPE '\\'`),
          ]),
        ),
      )
      .orderBy("date", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** The people of an event besides the user, as their pages know them. */
  async function guests(userId: number, attendees: string) {
    const own = new Set(await deps.people.ownAddresses(userId));
    const addresses = (JSON.parse(attendees) as string[])
      .flatMap(partiesOf)
      .map((party) => party.address)
      .filter((address) => !own.has(address));
    return { addresses, people: await deps.people.byAddresses(userId, addresses) };
  }

  async function read(userId: number, eventId: number): Promise<Dossier | null> {
    const row = await db.selectFrom("dossiers").selectAll().where("userId", "=", userId).where("eventId", "=", eventId).executeTakeFirst();
    return row ? { eventId: row.eventId, preparedAt: row.preparedAt, lines: JSON.parse(row.lines) as CitedLine[], conversationId: row.conversationId } : null;
  }

  async function prepare(userId: number, eventId: number): Promise<Dossier> {
    const found = await event(userId, eventId);
    if (!found) throw notFound(DOSSIER_TEXTS.eventNotFound, "event_not_found");
    const { people } = await guests(userId, found.attendees);
    const lastMail = new Map<number, MailHeader>();
    for (const person of people) {
      const mail = await lastMailWith(userId, person.addresses);
      if (mail) lastMail.set(person.id, mail);
    }
    const lines = dossierLines({ people, lastMail });
    const preparedAt = deps.now().toISOString();
    const earlier = await read(userId, eventId);
    const conversationId = earlier?.conversationId ?? (await deps.starter.create(userId, `${DOSSIER_TEXTS.conversation}: ${found.title}`)).id;
    const { content, citations } = messageOf(found.title, found.startAt, lines);
    await deps.messages.appendMessages(userId, conversationId, [{ role: "model", content, citations }]);
    await deps.starter.markUnread(userId, conversationId, preparedAt);
    await db
      .insertInto("dossiers")
      .values({ userId, eventId, conversationId, lines: JSON.stringify(lines), preparedAt })
      .onConflict((conflict) => conflict.columns(["userId", "eventId"]).doUpdateSet({ lines: JSON.stringify(lines), preparedAt }))
      .execute();
    return { eventId, preparedAt, lines, conversationId };
  }

  async function settings(userId: number): Promise<DossierSettings> {
    const row = await db.selectFrom("dossierSettings").selectAll().where("userId", "=", userId).executeTakeFirst();
    return { minutesBefore: row?.minutesBefore ?? DEFAULT_MINUTES, ...(row?.calendars ? { calendars: JSON.parse(row.calendars) as number[] } : {}) };
  }

  return {
    prepare,
    settings,

    async get(userId: number, eventId: number): Promise<Dossier> {
      const dossier = await read(userId, eventId);
      if (!dossier) throw notFound(DOSSIER_TEXTS.noDossier, "dossier_not_found");
      return dossier;
    },

    async saveSettings(userId: number, value: DossierSettings): Promise<DossierSettings> {
      const calendars = value.calendars ? JSON.stringify(value.calendars) : null;
      const updatedAt = deps.now().toISOString();
      await db
        .insertInto("dossierSettings")
        .values({ userId, minutesBefore: value.minutesBefore, calendars, updatedAt })
        .onConflict((conflict) => conflict.column("userId").doUpdateSet({ minutesBefore: value.minutesBefore, calendars, updatedAt }))
        .execute();
      return settings(userId);
    },

    /**
     * The round (every minute in a running app): each user's events with other people starting within their lead
     * time, from the calendars they chose, get a dossier once. Answers how many were prepared.
     */
    async prepareDue(): Promise<number> {
      const now = deps.now();
      const users = await db.selectFrom("users").select("id").execute();
      let prepared = 0;
      for (const { id: userId } of users) {
        const chosen = await settings(userId);
        const until = new Date(now.getTime() + chosen.minutesBefore * 60_000).toISOString();
        let query = db
          .selectFrom("calendarEvents as e")
          .leftJoin("dossiers as d", (join) => join.onRef("d.eventId", "=", "e.id").onRef("d.userId", "=", "e.userId"))
          .select(["e.id", "e.attendees"])
          .where("e.userId", "=", userId)
          .where("e.allDay", "=", 0)
          .where("e.startAt", ">", now.toISOString())
          .where("e.startAt", "<=", until)
          .where("d.id", "is", null);
        if (chosen.calendars) query = query.where("e.accountId", "in", chosen.calendars.length ? chosen.calendars : [0]);
        for (const due of await query.execute()) {
          if ((await guests(userId, due.attendees)).addresses.length === 0) continue;
          await prepare(userId, due.id);
          prepared++;
        }
      }
      return prepared;
    },
  };
}

export type DossiersService = ReturnType<typeof createDossiersService>;
