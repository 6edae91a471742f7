import { z } from "zod";

/** The reminders feed (issue 30): a secret address that calendar apps subscribe to. */

export const CALENDAR_FEED_ERRORS = {
  feedNotFound: "Calendar feed not found",
} as const;

/** The feed's name in the subscribing calendar app. */
export const REMINDERS_FEED_NAME = "SAGE reminders";

/** GET /api/calendar/feed and POST /api/calendar/feed/rotate. */
export const calendarFeedSchema = z.object({ url: z.string() });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** GET /api/calendar/{token}.ics: a token is 43 base64url characters (32 random bytes). */
export const calendarFeedParamsSchema = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{43}\.ics$/) });
