import type { Kysely } from "kysely";
import type { Occurrence } from "../../providers/calendar/expand-calendar.ts";
import type { Database } from "../../store/schema.ts";

export interface CalendarEventRow {
  id: number;
  accountId: number;
  objectId: number;
  uid: string;
  recurrenceId: string | null;
  title: string;
  location: string;
  startAt: string;
  endAt: string;
  allDay: number;
  timeZone: string;
  attendees: string;
  busy: number;
  description: string;
}

const EVENT_COLUMNS = [
  "id",
  "accountId",
  "objectId",
  "uid",
  "recurrenceId",
  "title",
  "location",
  "startAt",
  "endAt",
  "allDay",
  "timeZone",
  "attendees",
  "busy",
  "description",
] as const;

export function createCalendarEventsRepo(db: Kysely<Database>) {
  return {
    objectsOf: (accountId: number) => db.selectFrom("calendarObjects").selectAll().where("accountId", "=", accountId).execute(),

    object: (id: number) => db.selectFrom("calendarObjects").selectAll().where("id", "=", id).executeTakeFirst(),

    /** Adds or replaces an object (by its href); answers its id. */
    saveObject: async (object: { accountId: number; href: string; calendarUrl: string | null; etag: string | null; ics: string }) =>
      (
        await db
          .insertInto("calendarObjects")
          .values(object)
          .onConflict((conflict) =>
            conflict.columns(["accountId", "href"]).doUpdateSet({ calendarUrl: object.calendarUrl, etag: object.etag, ics: object.ics }),
          )
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,

    removeObjects: (ids: number[]) => (ids.length === 0 ? Promise.resolve() : db.deleteFrom("calendarObjects").where("id", "in", ids).execute()),

    /** Replaces all the account's occurrences with these, in one transaction (a reader never sees half). */
    replaceEvents: (accountId: number, userId: number, occurrences: Occurrence[]) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom("calendarEvents").where("accountId", "=", accountId).execute();
        for (let start = 0; start < occurrences.length; start += 200) {
          const batch = occurrences.slice(start, start + 200);
          await trx
            .insertInto("calendarEvents")
            .values(
              batch.map((entry) => ({
                accountId,
                userId,
                objectId: entry.objectId,
                uid: entry.uid,
                recurrenceId: entry.recurrenceId,
                title: entry.title,
                location: entry.location,
                startAt: entry.startAt,
                endAt: entry.endAt,
                allDay: entry.allDay ? 1 : 0,
                timeZone: entry.timeZone,
                attendees: JSON.stringify(entry.attendees),
                busy: entry.busy ? 1 : 0,
                description: entry.description,
              })),
            )
            .execute();
        }
      }),

    /** Events, as a calendar app counts them: a recurring one is one event. */
    eventCount: async (accountId: number) =>
      Number(
        (
          await db
            .selectFrom("calendarEvents")
            .select((eb) => eb.fn.count<number>("uid").distinct().as("n"))
            .where("accountId", "=", accountId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    /** The user's occurrences overlapping [from, to), earliest first. */
    between: (userId: number, from: string, to: string, limit: number) =>
      db
        .selectFrom("calendarEvents")
        .select(EVENT_COLUMNS)
        .where("userId", "=", userId)
        .where("startAt", "<", to)
        .where("endAt", ">", from)
        .orderBy("startAt")
        .orderBy("id")
        .limit(limit)
        .execute(),

    /** Drops one occurrence from the listing (cancelled on the server; the next sync reads the series again). */
    removeEvent: (id: number) => db.deleteFrom("calendarEvents").where("id", "=", id).execute(),

    event: (userId: number, id: number) =>
      db.selectFrom("calendarEvents").select(EVENT_COLUMNS).where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    timeZone: async (userId: number) =>
      (await db.selectFrom("calendarPreferences").select("timeZone").where("userId", "=", userId).executeTakeFirst())?.timeZone ?? null,
  };
}

export type CalendarEventsRepo = ReturnType<typeof createCalendarEventsRepo>;
