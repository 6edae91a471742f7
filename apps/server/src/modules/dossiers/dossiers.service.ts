import type { Kysely } from "kysely";
import { sql } from "kysely";
import { DOSSIER_TEXTS, type Dossier, type DossierSettings, type EventNote } from "@sage/contracts/dossiers";
import type { CitedLine } from "@sage/contracts/cited-lines";
import { notFound } from "../../http/app-error.ts";
import type { Database } from "../../store/schema.ts";
import { attachmentsFolderName } from "../knowledge/knowledge.module.ts";
import type { RunNotifier } from "../channels/channels.module.ts";
import type { ConversationMessagesPort, ConversationStarterPort } from "../conversations/conversations.module.ts";
import { partiesOf, shortDay, type MailHeader, type PeoplePort } from "../people/people.module.ts";
import { dossierLines, type DossierDocument, type DossierNotes } from "./dossier-lines.ts";
import { namedInTitle } from "./named-in-title.ts";

const MAIL_COLUMNS = ["id", "accountId", "folder", "subject", "fromAddress", "toAddress", "date", "itemId"] as const;
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;
const DEFAULT_MINUTES = 30;
/** How many recent mails with these people are looked at for attachments, and how many documents a dossier lists. */
const SHARED_MAILS = 20;
const DOCUMENTS_MAX = 8;
/** How many earlier meetings with notes are looked through for the last one with these people. */
const NOTED_EVENTS = 200;
/** A meeting's "Add notes": the note's name, as the knowledge base shows it (no slash: a name is not a path). */
const notesName = (title: string, startAt: string) => `Notes: ${title.replace(/\//g, "-")}, ${shortDay(startAt)}`.slice(0, 255);

export interface DossierDeps {
  db: Kysely<Database>;
  people: PeoplePort;
  starter: Pick<ConversationStarterPort, "create" | "markUnread">;
  messages: Pick<ConversationMessagesPort, "appendMessages">;
  /** Where "Add notes" files the user's notes (the knowledge base; the commitments scan reads them there). */
  notes: { add(userId: number, name: string, content: string): Promise<{ id: number; name: string }> };
  /**
   * Delivery where the user chose (decision 099): the channels module's notifier, as for the morning briefing: web
   * push and the channels picked for the briefing get the dossier.
   */
  notify?: RunNotifier;
  now: () => Date;
}

/** The dossier as one message: a heading, then each line with its citation marks. */
function messageOf(title: string, start: string, lines: CitedLine[]) {
  // A line quoting someone else's words marks its citations with whose (issue 47): the conversation's later turns
  // count the dossier as content from there, as they count an answer written after reading a mail.
  const citations = lines.flatMap((line) => line.citations.map((citation) => (line.from ? { ...citation, from: line.from } : citation)));
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
      .select(["id", "accountId", "title", "startAt", "attendees", "description"])
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

  /**
   * The people of an event besides the user, as their pages know them: its attendees, and anyone whose name (or
   * company) its title names ("Lunch with Anna Berg", "Acme quarterly").
   */
  async function guests(userId: number, event: { title: string; attendees: string }) {
    const own = new Set(await deps.people.ownAddresses(userId));
    const invited = (JSON.parse(event.attendees) as string[])
      .flatMap(partiesOf)
      .map((party) => party.address)
      .filter((address) => !own.has(address));
    const named = namedInTitle(event.title, await deps.people.directory(userId)).filter((address) => !own.has(address));
    const addresses = [...new Set([...invited, ...named])];
    return { addresses, people: await deps.people.byAddresses(userId, addresses) };
  }

  /** Attachments of the recent mails with these people (each mail's "… attachments" folder beside it). */
  async function sharedDocuments(userId: number, addresses: string[]): Promise<DossierDocument[]> {
    if (addresses.length === 0) return [];
    const mails = await db
      .selectFrom("mailMessages as m")
      .innerJoin("knowledgeItems as k", "k.id", "m.itemId")
      .select([...MAIL_COLUMNS.map((column) => `m.${column}` as const), "k.name as itemName", "k.parentId as itemParent"])
      .where("m.userId", "=", userId)
      .where((eb) =>
        eb.or(
          addresses.flatMap((address) => [
            eb(sql`lower(m.from_address)`, "like", sql`${likePattern(address)} ESCAPE '\\'`),
            eb(sql`lower(m.to_address)`, "like", sql`${likePattern(address)} ESCAPE '\\'`),
          ]),
        ),
      )
      .orderBy("m.date", "desc")
      .orderBy("m.id", "desc")
      .limit(SHARED_MAILS)
      .execute();
    if (mails.length === 0) return [];
    const folders = await db
      .selectFrom("knowledgeItems")
      .select(["id", "name", "parentId"])
      .where("userId", "=", userId)
      .where("type", "=", "folder")
      .where(
        "name",
        "in",
        mails.map((mail) => attachmentsFolderName(mail.itemName)),
      )
      .execute();
    const documents: DossierDocument[] = [];
    for (const mail of mails) {
      const folder = folders.find((row) => row.name === attachmentsFolderName(mail.itemName) && row.parentId === mail.itemParent);
      if (!folder) continue;
      const files = await db
        .selectFrom("knowledgeItems")
        .select(["id", "name"])
        .where("userId", "=", userId)
        .where("parentId", "=", folder.id)
        .where("type", "=", "file")
        .orderBy("id")
        .limit(DOCUMENTS_MAX)
        .execute();
      for (const file of files) if (!documents.some((known) => known.name === file.name)) documents.push({ itemId: file.id, name: file.name, mail });
      if (documents.length >= DOCUMENTS_MAX) break;
    }
    return documents.slice(0, DOCUMENTS_MAX);
  }

  /** Documents of the knowledge base the invitation names ("please read Q3 plan.pdf"). */
  async function mentionedDocuments(userId: number, description: string): Promise<DossierDocument[]> {
    const text = description.toLowerCase();
    if (!text.trim()) return [];
    const rows = await db
      .selectFrom("knowledgeItems")
      .select(["id", "name"])
      .where("userId", "=", userId)
      .where("type", "=", "file")
      .where(sql<number>`length(name)`, ">=", 5)
      .where(sql<boolean>`${text} LIKE '%' || lower(name) || '%'`)
      .orderBy("id", "desc")
      .limit(DOCUMENTS_MAX * 4)
      .execute();
    const seen = new Set<string>();
    return rows
      .filter((row) => text.includes(row.name.toLowerCase()) && !seen.has(row.name) && seen.add(row.name))
      .slice(0, DOCUMENTS_MAX)
      .map((row) => ({ itemId: row.id, name: row.name }));
  }

  /** The notes of the last earlier meeting with any of these people (or of the same title: a recurring meeting). */
  async function lastNotes(userId: number, event: { id: number; title: string; startAt: string }, addresses: string[]): Promise<DossierNotes | undefined> {
    const noted = await db
      .selectFrom("eventNotes as n")
      .innerJoin("calendarEvents as e", "e.id", "n.eventId")
      .innerJoin("knowledgeItems as k", "k.id", "n.itemId")
      .leftJoin("knowledgeItemTexts as x", "x.itemId", "k.id")
      .select(["n.itemId", "k.name", "e.title", "e.startAt", "e.attendees", "x.content"])
      .where("n.userId", "=", userId)
      .where("e.userId", "=", userId)
      .where("e.id", "!=", event.id)
      .where("e.startAt", "<", event.startAt)
      .orderBy("e.startAt", "desc")
      .orderBy("n.id", "desc")
      .limit(NOTED_EVENTS)
      .execute();
    const wanted = new Set(addresses);
    const match = noted.find(
      (row) => row.title === event.title || (JSON.parse(row.attendees) as string[]).flatMap(partiesOf).some((party) => wanted.has(party.address)),
    );
    if (!match) return undefined;
    return { itemId: match.itemId, name: match.name, eventTitle: match.title, eventStartAt: match.startAt, text: match.content ?? "" };
  }

  async function read(userId: number, eventId: number): Promise<Dossier | null> {
    const row = await db.selectFrom("dossiers").selectAll().where("userId", "=", userId).where("eventId", "=", eventId).executeTakeFirst();
    return row ? { eventId: row.eventId, preparedAt: row.preparedAt, lines: JSON.parse(row.lines) as CitedLine[], conversationId: row.conversationId } : null;
  }

  async function write(userId: number, eventId: number) {
    const found = await event(userId, eventId);
    if (!found) throw notFound(DOSSIER_TEXTS.eventNotFound, "event_not_found");
    const { people, addresses } = await guests(userId, found);
    const lastMail = new Map<number, MailHeader>();
    for (const person of people) {
      const mail = await lastMailWith(userId, person.addresses);
      if (mail) lastMail.set(person.id, mail);
    }
    const known = people.flatMap((person) => person.addresses);
    const shared = await sharedDocuments(userId, known);
    const mentioned = (await mentionedDocuments(userId, found.description)).filter((document) => !shared.some((other) => other.itemId === document.itemId));
    const lines = dossierLines({
      event: { id: found.id, title: found.title, startAt: found.startAt, description: found.description },
      people,
      lastMail,
      documents: [...shared, ...mentioned],
      lastNotes: await lastNotes(userId, found, [...new Set([...addresses, ...known])]),
    });
    const preparedAt = deps.now().toISOString();
    const earlier = await read(userId, eventId);
    const conversationId = earlier?.conversationId ?? (await deps.starter.create(userId, `${DOSSIER_TEXTS.conversation}: ${found.title}`)).id;
    const { content, citations } = messageOf(found.title, found.startAt, lines);
    const written = await deps.messages.appendMessages(userId, conversationId, [{ role: "model", content, citations }]);
    await deps.starter.markUnread(userId, conversationId, preparedAt);
    await db
      .insertInto("dossiers")
      .values({ userId, eventId, conversationId, lines: JSON.stringify(lines), preparedAt })
      .onConflict((conflict) => conflict.columns(["userId", "eventId"]).doUpdateSet({ lines: JSON.stringify(lines), preparedAt }))
      .execute();
    return { dossier: { eventId, preparedAt, lines, conversationId }, title: found.title, messageIds: written.map((message) => message.id) };
  }

  /** "Prepare now": the user is in the app, so nothing is pushed. */
  const prepare = async (userId: number, eventId: number): Promise<Dossier> => (await write(userId, eventId)).dossier;

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

    /**
     * "Add notes" after a meeting: the user's words become a note of the knowledge base named after the event (search
     * and the commitments scan read it), filed under the event for the next dossier with these people.
     */
    async addNotes(userId: number, eventId: number, text: string): Promise<EventNote> {
      const found = await event(userId, eventId);
      if (!found) throw notFound(DOSSIER_TEXTS.eventNotFound, "event_not_found");
      const note = await deps.notes.add(userId, notesName(found.title, found.startAt), text);
      await db.insertInto("eventNotes").values({ userId, eventId, itemId: note.id, createdAt: deps.now().toISOString() }).execute();
      return { eventId, fileId: note.id, name: note.name };
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
          .select(["e.id", "e.title", "e.attendees"])
          .where("e.userId", "=", userId)
          .where("e.allDay", "=", 0)
          .where("e.startAt", ">", now.toISOString())
          .where("e.startAt", "<=", until)
          .where("d.id", "is", null);
        if (chosen.calendars) query = query.where("e.accountId", "in", chosen.calendars.length ? chosen.calendars : [0]);
        for (const due of await query.execute()) {
          if ((await guests(userId, due)).addresses.length === 0) continue;
          const { dossier, title, messageIds } = await write(userId, due.id);
          deps.notify?.(userId, "runs", `${DOSSIER_TEXTS.conversation}: ${title}`, dossier.conversationId, "succeeded", {
            briefing: true,
            messageIds,
            body: DOSSIER_TEXTS.ready(title),
          });
          prepared++;
        }
      }
      return prepared;
    },
  };
}

export type DossiersService = ReturnType<typeof createDossiersService>;
