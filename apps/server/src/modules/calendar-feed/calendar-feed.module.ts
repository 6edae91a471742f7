import type { Kysely } from "kysely";
import type { Reminder } from "@sage/contracts/reminders";
import type { AppModule } from "../../http/app-module.ts";
import type { Database } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { registerCalendarFeedRoutes } from "./calendar-feed.routes.ts";
import { createFeedTokens, createTimeZones } from "./feed-tokens.ts";

/**
 * GET /api/calendar/{token}.ics: the user's reminders as a calendar that Outlook, Google or Apple Calendar subscribe
 * to; and the user's time zone, which calendars are read in.
 */
export function createCalendarFeedModule(deps: {
  db: Kysely<Database>;
  box: SecretBox;
  reminders: { list(userId: number): Promise<Reminder[]> };
  defaultTimeZone: string;
  /** The user's calendars are read again in the new zone (floating and all-day times move with it). */
  timeZoneChanged(userId: number): Promise<unknown>;
}): AppModule {
  const tokens = createFeedTokens(deps.db, deps.box);
  const timeZones = createTimeZones(deps.db);
  return {
    register: (app) =>
      registerCalendarFeedRoutes(app, {
        tokens,
        reminders: deps.reminders,
        timeZones,
        defaultTimeZone: deps.defaultTimeZone,
        timeZoneChanged: deps.timeZoneChanged,
      }),
  };
}
