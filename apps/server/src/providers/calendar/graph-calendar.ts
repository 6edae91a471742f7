import ICAL from "ical.js";
import { z } from "zod";
import type { PrivateAddressRule } from "../mail/allowed-host.ts";
import { MailConnectionError } from "../mail/mail-connection-error.ts";
import type { CalendarObjectData } from "./caldav-client.ts";
import { calendarFetch, type FetchTrace } from "./calendar-fetch.ts";
import { icsCalendar, icsDay, icsMailto, icsObjectText, icsOneLine, icsText, icsUtcTime } from "./ics-calendar.ts";

/** Microsoft Graph (https://graph.microsoft.com/v1.0) and an access token with Calendars.ReadWrite. */
export interface GraphServer {
  url: string;
  accessToken: string;
}

export interface GraphEventFields {
  title: string;
  start: Date;
  end: Date;
  location?: string;
  attendees?: string[];
}

export interface GraphConnection {
  /** The default calendar's occurrences in the window (Graph expands the series), each as a calendar object. */
  objects(window: { from: string; to: string }): Promise<CalendarObjectData[]>;
  /** A new event in the default calendar; Exchange sends the invitations to its attendees. */
  create(event: GraphEventFields): Promise<void>;
  /** Replaces an event's fields, only if it has not changed since `etag` (412: changed meanwhile). */
  update(id: string, etag: string | null, event: GraphEventFields): Promise<void>;
  /**
   * Deletes an event (an occurrence's id: that occurrence only), only if unchanged since `etag`; Graph answers 204 and,
   * for a meeting the user organises, sends the attendees its cancellation. One already gone counts as deleted.
   */
  remove(id: string, etag: string | null): Promise<void>;
}

/** Occurrences asked for per page (Graph allows up to 1,000 with $top). */
const PAGE_SIZE = 200;
/** A calendar with more pages than this is cut (a year of a busy agenda is a few pages). */
const MAX_PAGES = 100;
const SELECT = "id,subject,start,end,isAllDay,location,attendees,organizer,showAs,isCancelled,type,seriesMasterId,originalStart,iCalUId";

const dateTime = z.object({ dateTime: z.string(), timeZone: z.string().optional() });
const emailAddress = z.object({ address: z.string().optional(), name: z.string().optional() }).partial();
/** The part of Graph's event resource SAGE reads (https://learn.microsoft.com/graph/api/resources/event). */
const graphEvent = z.object({
  id: z.string(),
  "@odata.etag": z.string().optional(),
  subject: z.string().nullish(),
  start: dateTime,
  end: dateTime,
  isAllDay: z.boolean().nullish(),
  location: z.object({ displayName: z.string().nullish() }).nullish(),
  attendees: z.array(z.object({ emailAddress: emailAddress.nullish() })).nullish(),
  organizer: z.object({ emailAddress: emailAddress.nullish() }).nullish(),
  showAs: z.string().nullish(),
  isCancelled: z.boolean().nullish(),
  type: z.string().nullish(),
  seriesMasterId: z.string().nullish(),
  originalStart: z.string().nullish(),
  iCalUId: z.string().nullish(),
});
type GraphEvent = z.infer<typeof graphEvent>;
const page = z.object({ value: z.array(graphEvent), "@odata.nextLink": z.string().optional() });

/** Graph's UTC date-time ("2026-12-01T09:00:00.0000000", zone UTC) as an instant. */
const utc = (value: { dateTime: string }) => new Date(/[zZ]|[+-]\d\d:\d\d$/.test(value.dateTime) ? value.dateTime : `${value.dateTime}Z`);

/**
 * One occurrence as a calendar object for the same expansion as CalDAV's: its series' id as UID (so a recurring
 * meeting counts once) and RECURRENCE-ID for a series' occurrence (read as one date of a series, never changed by
 * SAGE); free or elsewhere is TRANSPARENT; a cancelled one is kept as CANCELLED, which the expansion leaves out.
 */
export function graphEventIcs(event: GraphEvent): string {
  const allDay = Boolean(event.isAllDay);
  const inSeries = event.type === "occurrence" || event.type === "exception";
  const calendar = icsCalendar("-//SAGE//Microsoft Graph//EN");
  const vevent = new ICAL.Component("vevent");
  vevent.addPropertyWithValue("uid", icsOneLine(event.seriesMasterId ?? event.iCalUId ?? event.id));
  vevent.addPropertyWithValue("dtstamp", icsUtcTime(new Date()));
  vevent.addPropertyWithValue("dtstart", allDay ? icsDay(event.start.dateTime) : icsUtcTime(utc(event.start)));
  vevent.addPropertyWithValue("dtend", allDay ? icsDay(event.end.dateTime) : icsUtcTime(utc(event.end)));
  if (inSeries && event.originalStart) {
    vevent.addPropertyWithValue("recurrence-id", allDay ? icsDay(event.originalStart) : icsUtcTime(event.originalStart));
  }
  vevent.addPropertyWithValue("summary", icsText(event.subject ?? ""));
  if (event.location?.displayName) vevent.addPropertyWithValue("location", icsText(event.location.displayName));
  if (event.organizer?.emailAddress?.address) vevent.addPropertyWithValue("organizer", icsMailto(event.organizer.emailAddress.address));
  for (const attendee of event.attendees ?? []) {
    if (attendee.emailAddress?.address) vevent.addPropertyWithValue("attendee", icsMailto(attendee.emailAddress.address));
  }
  vevent.addPropertyWithValue("transp", event.showAs === "free" || event.showAs === "workingElsewhere" ? "TRANSPARENT" : "OPAQUE");
  if (event.isCancelled) vevent.addPropertyWithValue("status", "CANCELLED");
  calendar.addSubcomponent(vevent);
  return icsObjectText(calendar);
}

/** "2026-12-01T09:00:00" in UTC, as Graph's dateTimeTimeZone takes it. */
const graphTime = (at: Date) => ({ dateTime: at.toISOString().replace(/\.\d{3}Z$/, ""), timeZone: "UTC" });
const eventBody = (event: GraphEventFields) => ({
  subject: event.title,
  start: graphTime(event.start),
  end: graphTime(event.end),
  location: { displayName: event.location ?? "" },
  attendees: (event.attendees ?? []).map((address) => ({ emailAddress: { address }, type: "required" })),
});

/**
 * The user's Microsoft 365 calendar over Microsoft Graph (it has no CalDAV): calendarView for the window, POST,
 * PATCH and DELETE /me/events to write. Requests go through the calendars' fetch (private-address rule, redirects checked);
 * a failure names the step: 401/403 the sign-in, 404 not-found, 412 changed meanwhile.
 */
export function connectGraph(server: GraphServer, rule: PrivateAddressRule): GraphConnection {
  const base = new URL(server.url.endsWith("/") ? server.url : `${server.url}/`);
  const trace: FetchTrace = { statuses: [] };
  const fetch = calendarFetch(rule, trace);
  const headers = { authorization: `Bearer ${server.accessToken}`, accept: "application/json" };

  async function request(url: URL, init: { method: string; body?: object; headers?: Record<string, string> }) {
    const response = await fetch(url, {
      method: init.method,
      headers: { ...headers, ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    if (response.ok) return response;
    await response.body?.cancel();
    if (response.status === 401 || response.status === 403) throw new MailConnectionError("login", `graph ${response.status}`);
    if (response.status === 404) throw new MailConnectionError("not-found", "graph 404");
    if (response.status === 412) throw new MailConnectionError("network", "changed meanwhile");
    if (response.status === 429 || response.status >= 500) throw new MailConnectionError("try-later", `graph ${response.status}`);
    throw new MailConnectionError("not-calendar", `graph ${response.status}`);
  }

  return {
    async objects(window) {
      let url: URL | null = new URL("me/calendarView", base);
      url.search = new URLSearchParams({ startDateTime: window.from, endDateTime: window.to, $top: String(PAGE_SIZE), $select: SELECT }).toString();
      const objects: CalendarObjectData[] = [];
      for (let pages = 0; url && pages < MAX_PAGES; pages++) {
        const response = await request(url, { method: "GET", headers: { prefer: 'outlook.timezone="UTC"' } });
        const parsed = page.safeParse(await response.json().catch(() => null));
        if (!parsed.success) throw new MailConnectionError("not-calendar", "not a Graph calendarView page");
        for (const event of parsed.data.value) {
          objects.push({ href: event.id, calendarUrl: base.href, etag: event["@odata.etag"] ?? null, ics: graphEventIcs(event) });
        }
        const next = parsed.data["@odata.nextLink"];
        // The next page is followed only on Graph's own host: a token never goes anywhere else.
        url = next && new URL(next).origin === base.origin ? new URL(next) : null;
      }
      return objects;
    },
    async create(event) {
      await request(new URL("me/events", base), { method: "POST", body: eventBody(event) });
    },
    async update(id, etag, event) {
      await request(new URL(`me/events/${encodeURIComponent(id)}`, base), {
        method: "PATCH",
        body: eventBody(event),
        ...(etag ? { headers: { "if-match": etag } } : {}),
      });
    },
    async remove(id, etag) {
      try {
        await request(new URL(`me/events/${encodeURIComponent(id)}`, base), { method: "DELETE", ...(etag ? { headers: { "if-match": etag } } : {}) });
      } catch (error) {
        if (error instanceof MailConnectionError && error.problem === "not-found") return;
        throw error;
      }
    },
  };
}
