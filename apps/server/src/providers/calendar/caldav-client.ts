import { DAVClient, type DAVCalendar } from "tsdav";
import type { PrivateAddressRule } from "../mail/allowed-host.ts";
import { MailConnectionError } from "../mail/mail-connection-error.ts";
import { calendarFetch, connectionProblem, type FetchTrace } from "./calendar-fetch.ts";

export interface CaldavServer {
  url: string;
  user: string;
  password?: string;
  /** An OAuth 2.0 access token, sent as a bearer token instead of a password (Google's CalDAV). */
  accessToken?: string;
}

/** One calendar resource as the server holds it: a VCALENDAR with one event (and its exceptions). */
export interface CalendarObjectData {
  href: string;
  calendarUrl: string;
  etag: string | null;
  ics: string;
}

export interface CaldavCalendar {
  url: string;
  name: string;
}

export interface CaldavConnection {
  calendars: CaldavCalendar[];
  /** Every event object of every calendar that holds events. */
  objects(): Promise<CalendarObjectData[]>;
  /** Writes a new event into the first calendar (or the one named by its url); answers where it landed. */
  create(ics: string, uid: string, calendarUrl?: string): Promise<{ href: string; calendarUrl: string }>;
  /** Replaces an event object, only if it has not changed on the server since `etag`. */
  update(object: { href: string; etag: string | null; ics: string }): Promise<void>;
  /** Deletes an event object, only if it has not changed on the server since `etag`; one already gone counts as deleted. */
  remove(object: { href: string; etag: string | null }): Promise<void>;
}

const nameOf = (calendar: DAVCalendar) =>
  typeof calendar.displayName === "string" && calendar.displayName.trim()
    ? calendar.displayName.trim()
    : decodeURIComponent(calendar.url.split("/").filter(Boolean).pop() ?? "Calendar");

/** A failure after a login step, sorted by what the server answered (401/403: login; 404: no calendar there). */
function failure(error: unknown, trace: FetchTrace): MailConnectionError {
  if (error instanceof MailConnectionError) return error;
  if (trace.statuses.some((status) => status === 401 || status === 403)) return new MailConnectionError("login", "refused");
  if (trace.statuses.at(-1) === 404) return new MailConnectionError("not-found", "404");
  if ((error as { cause?: unknown }).cause || (error as { code?: string }).code) return connectionProblem(error);
  return new MailConnectionError("not-calendar", "no calendar");
}

/**
 * Logs in to a CalDAV server with tsdav (discovery: .well-known, principal, calendar home), through a fetch that
 * follows the private-address rule, and lists the calendars that hold events. Failures are MailConnectionErrors
 * naming the step: dns, tls, login, not-found, not-calendar, timeout, blocked, network.
 */
export async function connectCaldav(server: CaldavServer, rule: PrivateAddressRule): Promise<CaldavConnection> {
  const trace: FetchTrace = { statuses: [] };
  const fetch = calendarFetch(rule, trace);
  const client = new DAVClient({
    serverUrl: server.url,
    credentials: server.accessToken ? { username: server.user, accessToken: server.accessToken } : { username: server.user, password: server.password ?? "" },
    authMethod: server.accessToken ? "Bearer" : "Basic",
    defaultAccountType: "caldav",
    fetch,
  });
  let calendars: DAVCalendar[];
  try {
    await client.login();
    calendars = (await client.fetchCalendars()).filter((calendar) => !calendar.components || calendar.components.includes("VEVENT"));
  } catch (error) {
    throw failure(error, trace);
  }
  if (trace.statuses.some((status) => status === 401 || status === 403)) throw new MailConnectionError("login", "refused");
  if (calendars.length === 0) throw new MailConnectionError("not-calendar", "no calendars");
  return {
    calendars: calendars.map((calendar) => ({ url: calendar.url, name: nameOf(calendar) })),
    async objects() {
      const all: CalendarObjectData[] = [];
      for (const calendar of calendars) {
        try {
          const objects = await client.fetchCalendarObjects({ calendar });
          for (const object of objects) {
            if (typeof object.data !== "string" || !object.data.includes("BEGIN:VCALENDAR")) continue;
            all.push({ href: object.url, calendarUrl: calendar.url, etag: object.etag ?? null, ics: object.data });
          }
        } catch (error) {
          throw failure(error, trace);
        }
      }
      return all;
    },
    async create(ics, uid, calendarUrl) {
      const calendar = calendars.find((entry) => entry.url === calendarUrl) ?? calendars[0]!;
      const filename = `${uid.replace(/[^A-Za-z0-9@._-]/g, "-")}.ics`;
      let response: Response;
      try {
        response = await client.createCalendarObject({ calendar, iCalString: ics, filename });
      } catch (error) {
        throw failure(error, trace);
      }
      if (!response.ok) throw failure(new Error(String(response.status)), trace);
      return { href: new URL(filename, calendar.url.endsWith("/") ? calendar.url : `${calendar.url}/`).href, calendarUrl: calendar.url };
    },
    async update(object) {
      let response: Response;
      try {
        response = await client.updateCalendarObject({ calendarObject: { url: object.href, etag: object.etag ?? undefined, data: object.ics } });
      } catch (error) {
        throw failure(error, trace);
      }
      if (response.status === 412) throw new MailConnectionError("network", "changed meanwhile");
      if (!response.ok) throw failure(new Error(String(response.status)), trace);
    },
    async remove(object) {
      let response: Response;
      try {
        response = await client.deleteCalendarObject({ calendarObject: { url: object.href, etag: object.etag ?? undefined } });
      } catch (error) {
        throw failure(error, trace);
      }
      await response.body?.cancel();
      if (response.status === 412) throw new MailConnectionError("network", "changed meanwhile");
      if (!response.ok && response.status !== 404) throw failure(new Error(String(response.status)), trace);
    },
  };
}
