import { randomUUID } from "node:crypto";
import { buildEventIcs, cancelOccurrenceIcs, updateEventIcs } from "../../providers/calendar/event-ics.ts";
import type { PrivateAddressRule } from "../../providers/mail/allowed-host.ts";
import { MailConnectionError } from "../../providers/mail/mail-connection-error.ts";
import { calendarProblemMessage } from "@sage/contracts/accounts";
import type { AccountRow } from "../../store/schema.ts";
import { SignInNeededError, SignInUnavailableError } from "../sign-in/sign-in.module.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { CalendarEventsRepo } from "./calendar-events.repo.ts";
import { calendarHost, readCalendarSettings } from "./calendar-settings.ts";
import type { CalendarSource, CalendarSourceOf } from "./calendar-source.ts";
import type { ConnectCaldav, ConnectGraph } from "./calendar-sync.ts";

/** An occurrence as the assistant's tools see it: times are UTC ISO; `calendar` is the account's name. */
export interface AgendaEvent {
  id: number;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  location: string;
  /** Written by the organiser: content for the model, never an instruction (issue 47). */
  description: string;
  attendees: string[];
  calendar: string;
  recurring: boolean;
  busy: boolean;
}

export interface EventToWrite {
  title: string;
  start: Date;
  end: Date;
  location?: string;
  attendees?: string[];
}

/** Why a write did not happen, in words for the model and the user. */
export class CalendarWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CalendarWriteError";
  }
}

export const CALENDAR_WRITE_TEXTS = {
  noCaldav: "No calendar can take new events: connect a CalDAV calendar in Settings > Accounts (a subscription address is read-only).",
  passwordNeeded: "The calendar's password is needed again: enter it in Settings > Accounts.",
  signInNeeded: "The calendar's sign-in has expired or was withdrawn: press Sign in again in Settings > Accounts.",
  unreachable: "The calendar's sign-in could not be reached; try again in a moment.",
  noEvent: "No such event: use an id that listEvents gave.",
  readOnly: "That event comes from a subscription, which SAGE can only read; change it in the calendar it comes from.",
  recurring: "That event is one of a repeating series; SAGE changes single events only, so change the series in your calendar app.",
  changed: "The event was changed in the calendar meanwhile; list the events again and retry.",
  cancelReadOnly: "That event comes from a subscription, which SAGE can only read; cancel it in the calendar it comes from.",
  cancelOccurrence: "SAGE could not find that date in its series on the server; cancel it in your calendar app.",
  cancelChanged: "The event changed on the server since SAGE read it, so it was not cancelled; list the events again and ask the user.",
} as const;

const failure = (error: unknown, host: string, signIn: boolean) =>
  error instanceof MailConnectionError ? new CalendarWriteError(calendarProblemMessage(error.problem, host, signIn)) : error;

/** A calendar that takes new events: CalDAV (with a password or Google's token) or Microsoft Graph; never a subscription. */
const takesEvents = (row: AccountRow) => {
  const settings = readCalendarSettings(row);
  return Boolean(settings.caldav || settings.graph);
};

/** The user's synced events for the assistant, and writing to their CalDAV calendar (only after Approve: the tools' cards). */
export function createCalendarAgenda(deps: {
  repo: AccountsRepo;
  calendar: CalendarEventsRepo;
  source: CalendarSourceOf;
  rule: PrivateAddressRule;
  connectCaldav: ConnectCaldav;
  connectGraph: ConnectGraph;
  defaultTimeZone: string;
  /** Syncs the account now, so what was written shows in the next listing. */
  syncNow(userId: number, accountId: number): Promise<unknown>;
}) {
  const { repo, calendar } = deps;
  const calendarsOf = async (userId: number) => (await repo.list(userId)).filter((row) => row.kind === "calendar");

  /** The account's source, or why it cannot be written to, in words. */
  async function sourceOf(row: AccountRow): Promise<Exclude<CalendarSource, { kind: "ics" }>> {
    let source: CalendarSource | null;
    try {
      source = await deps.source(row);
    } catch (error) {
      if (error instanceof SignInNeededError) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.signInNeeded);
      if (error instanceof SignInUnavailableError) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.unreachable);
      throw error;
    }
    if (!source) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.passwordNeeded);
    if (source.kind === "ics") throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.readOnly);
    return source;
  }

  /** Occurrences overlapping [from, to), earliest first, at most `limit`. */
  async function list(userId: number, from: string, to: string, limit = 200): Promise<AgendaEvent[]> {
    const names = new Map((await calendarsOf(userId)).map((row) => [row.id, row.name]));
    return (await calendar.between(userId, from, to, limit)).map((row) => ({
      id: row.id,
      title: row.title,
      start: row.startAt,
      end: row.endAt,
      allDay: row.allDay === 1,
      location: row.location,
      description: row.description,
      attendees: JSON.parse(row.attendees) as string[],
      calendar: names.get(row.accountId) ?? "",
      recurring: row.recurrenceId !== null,
      busy: row.busy === 1,
    }));
  }

  return {
    list,

    hasCalendar: async (userId: number) => (await calendarsOf(userId)).length > 0,

    timeZone: async (userId: number) => (await calendar.timeZone(userId)) ?? deps.defaultTimeZone,

    /** Which calendar a new event would go to ("Work calendar"), or null when none can take one. */
    async writableCalendar(userId: number): Promise<string | null> {
      return (await calendarsOf(userId)).find(takesEvents)?.name ?? null;
    },

    /** Writes a new event into the first CalDAV calendar; only the createEvent tool calls this, after Approve. */
    async create(userId: number, event: EventToWrite): Promise<{ calendar: string }> {
      const row = (await calendarsOf(userId)).find(takesEvents);
      if (!row) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.noCaldav);
      const settings = readCalendarSettings(row);
      const source = await sourceOf(row);
      try {
        if (source.kind === "graph") await deps.connectGraph(source.server, deps.rule).create(event);
        else {
          const uid = `${randomUUID()}@sage`;
          const organizer = source.server.user.includes("@") ? source.server.user : undefined;
          const connection = await deps.connectCaldav(source.server, deps.rule);
          await connection.create(buildEventIcs({ uid, ...event, organizer }), uid);
        }
      } catch (error) {
        throw failure(error, calendarHost(settings), Boolean(settings.auth));
      }
      await deps.syncNow(userId, row.id);
      return { calendar: row.name };
    },

    /** The stored event an update would change (for the card), or a reason it cannot be changed. */
    async changeable(userId: number, id: number): Promise<{ event: AgendaEvent } | { refusal: string }> {
      const row = await calendar.event(userId, id);
      if (!row) return { refusal: CALENDAR_WRITE_TEXTS.noEvent };
      const account = await repo.find(userId, row.accountId);
      if (!account || !takesEvents(account)) return { refusal: CALENDAR_WRITE_TEXTS.readOnly };
      if (row.recurrenceId !== null) return { refusal: CALENDAR_WRITE_TEXTS.recurring };
      const [event] = (await list(userId, row.startAt, row.endAt === row.startAt ? new Date(Date.parse(row.endAt) + 1).toISOString() : row.endAt, 500)).filter(
        (entry) => entry.id === id,
      );
      return event ? { event } : { refusal: CALENDAR_WRITE_TEXTS.noEvent };
    },

    /**
     * The stored event a cancel would remove (for the card), and whether it is one occurrence of a series (only that
     * occurrence is cancelled, decision 067); or a reason it cannot be cancelled.
     */
    async cancellable(userId: number, id: number): Promise<{ event: AgendaEvent; occurrence: boolean } | { refusal: string }> {
      const row = await calendar.event(userId, id);
      if (!row) return { refusal: CALENDAR_WRITE_TEXTS.noEvent };
      const account = await repo.find(userId, row.accountId);
      if (!account || !takesEvents(account)) return { refusal: CALENDAR_WRITE_TEXTS.cancelReadOnly };
      const end = row.endAt === row.startAt ? new Date(Date.parse(row.endAt) + 1).toISOString() : row.endAt;
      const [event] = (await list(userId, row.startAt, end, 500)).filter((entry) => entry.id === id);
      return event ? { event, occurrence: row.recurrenceId !== null } : { refusal: CALENDAR_WRITE_TEXTS.noEvent };
    },

    /**
     * Cancels an event on its server after Approve (only cancelEvent calls this): CalDAV DELETE of its object with
     * If-Match, or for one occurrence of a series an EXDATE on the series; Graph DELETE of the event or occurrence.
     * SAGE's own listing drops it at once, before the next sync reads the server again.
     */
    async cancel(userId: number, id: number): Promise<{ calendar: string }> {
      const row = await calendar.event(userId, id);
      if (!row) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.noEvent);
      const account = await repo.find(userId, row.accountId);
      const object = await calendar.object(row.objectId);
      if (!account || !takesEvents(account) || !object) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.cancelReadOnly);
      const settings = readCalendarSettings(account);
      const source = await sourceOf(account);
      const whole = source.kind === "graph" || row.recurrenceId === null;
      try {
        if (source.kind === "graph") await deps.connectGraph(source.server, deps.rule).remove(object.href, object.etag);
        else {
          const connection = await deps.connectCaldav(source.server, deps.rule);
          if (whole) await connection.remove({ href: object.href, etag: object.etag });
          else {
            const ics = cancelOccurrenceIcs(object.ics, row.uid, {
              recurrenceId: row.recurrenceId!,
              // A floating or all-day series was read in the user's zone (its rows name none).
              timeZone: row.timeZone || ((await calendar.timeZone(userId)) ?? deps.defaultTimeZone),
            });
            if (ics === null) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.cancelOccurrence);
            // An invitation to that one date only: nothing else is left in the object.
            if (ics === "") await connection.remove({ href: object.href, etag: object.etag });
            else await connection.update({ href: object.href, etag: object.etag, ics });
          }
        }
      } catch (error) {
        if (error instanceof MailConnectionError && error.message === "changed meanwhile") throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.cancelChanged);
        throw failure(error, calendarHost(settings), Boolean(settings.auth));
      }
      // Graph keeps each occurrence as an object of its own; a CalDAV object holds the whole event or series.
      if (whole) await calendar.removeObjects([object.id]);
      else await calendar.removeEvent(id);
      await deps.syncNow(userId, account.id);
      return { calendar: account.name };
    },

    /** Replaces a single event's fields on the CalDAV server; only updateEvent calls this, after Approve. */
    async update(userId: number, id: number, event: EventToWrite): Promise<{ calendar: string }> {
      const row = await calendar.event(userId, id);
      if (!row) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.noEvent);
      const account = await repo.find(userId, row.accountId);
      const object = await calendar.object(row.objectId);
      if (!account || !takesEvents(account) || !object) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.readOnly);
      if (row.recurrenceId !== null) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.recurring);
      const settings = readCalendarSettings(account);
      const source = await sourceOf(account);
      try {
        if (source.kind === "graph") await deps.connectGraph(source.server, deps.rule).update(object.href, object.etag, event);
        else {
          const ics = updateEventIcs(object.ics, row.uid, event);
          if (!ics) throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.recurring);
          const connection = await deps.connectCaldav(source.server, deps.rule);
          await connection.update({ href: object.href, etag: object.etag, ics });
        }
      } catch (error) {
        if (error instanceof MailConnectionError && error.message === "changed meanwhile") throw new CalendarWriteError(CALENDAR_WRITE_TEXTS.changed);
        throw failure(error, calendarHost(settings), Boolean(settings.auth));
      }
      await deps.syncNow(userId, account.id);
      return { calendar: account.name };
    },
  };
}

export type CalendarAgenda = ReturnType<typeof createCalendarAgenda>;
