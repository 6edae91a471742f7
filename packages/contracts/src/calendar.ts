import { z } from "zod";

/** The reminders feed (issue 30): a secret address that calendar apps subscribe to. */

export const CALENDAR_FEED_ERRORS = {
  feedNotFound: "Calendar feed not found",
  timeZoneInvalid: "Time zone must be a name such as Europe/Prague or America/New_York",
} as const;

/** The feed's name in the subscribing calendar app. */
export const REMINDERS_FEED_NAME = "SAGE reminders";

/** GET /api/calendar/feed and POST /api/calendar/feed/rotate. */
export const calendarFeedSchema = z.object({ url: z.string() });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** GET /api/calendar/{token}.ics: a token is 43 base64url characters (32 random bytes). */
export const calendarFeedParamsSchema = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{43}\.ics$/) });

const isTimeZone = (name: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** GET and PUT /api/calendar/time-zone: the zone calendars are read in; `saved` is false while the server's default applies. */
export const timeZoneSettingSchema = z.object({ timeZone: z.string(), saved: z.boolean() });
export type TimeZoneSetting = z.infer<typeof timeZoneSettingSchema>;
export const timeZoneRequestSchema = z.object({
  timeZone: z
    .string({ error: CALENDAR_FEED_ERRORS.timeZoneInvalid })
    .trim()
    .min(1, CALENDAR_FEED_ERRORS.timeZoneInvalid)
    .max(100, CALENDAR_FEED_ERRORS.timeZoneInvalid)
    .refine(isTimeZone, CALENDAR_FEED_ERRORS.timeZoneInvalid),
});

export const CALENDAR_EVENTS_ERRORS = {
  range: "from and to must be ISO date-times, from before to, at most 31 days apart",
} as const;

/** GET /api/calendar/events?from&to: the synced events overlapping [from, to), for the Today panel. */
export const calendarEventsQuerySchema = z
  .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .refine(({ from, to }) => Date.parse(from) < Date.parse(to) && Date.parse(to) - Date.parse(from) <= 31 * 86_400_000, {
    error: CALENDAR_EVENTS_ERRORS.range,
  });

export const calendarEventSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** UTC ISO date-times; an all-day event runs from its day's start to the next day's in the user's time zone. */
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  location: z.string(),
  /** The calendar account's name. */
  calendar: z.string(),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

/** `connected` is false while the user has no calendar account, so the page can say so rather than "no meetings". */
export const calendarEventsResponseSchema = z.object({ connected: z.boolean(), events: z.array(calendarEventSchema) });
export type CalendarEventsResponse = z.infer<typeof calendarEventsResponseSchema>;
