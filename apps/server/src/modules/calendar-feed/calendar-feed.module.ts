import type { Kysely } from "kysely";
import type { Reminder } from "@sage/contracts/reminders";
import type { AppModule } from "../../http/app-module.ts";
import type { Database } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { registerCalendarFeedRoutes } from "./calendar-feed.routes.ts";
import { createFeedTokens } from "./feed-tokens.ts";

/** GET /api/calendar/{token}.ics: the user's reminders as a calendar that Outlook, Google or Apple Calendar subscribe to. */
export function createCalendarFeedModule(deps: { db: Kysely<Database>; box: SecretBox; reminders: { list(userId: number): Promise<Reminder[]> } }): AppModule {
  const tokens = createFeedTokens(deps.db, deps.box);
  return { register: (app) => registerCalendarFeedRoutes(app, { tokens, reminders: deps.reminders }) };
}
