import type { FastifyInstance, FastifyRequest } from "fastify";
import { CALENDAR_FEED_ERRORS, calendarFeedParamsSchema, type CalendarFeed } from "@sage/contracts/calendar";
import type { Reminder } from "@sage/contracts/reminders";
import { notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { FeedTokens } from "./feed-tokens.ts";
import { remindersIcs } from "./reminders-ics.ts";

/** The address a calendar app subscribes to, on the host the user reached SAGE by (checked by the host guard). */
const feedUrl = (request: FastifyRequest, token: string) => `${request.protocol}://${request.host}/api/calendar/${token}.ics`;

export function registerCalendarFeedRoutes(app: FastifyInstance, deps: { tokens: FeedTokens; reminders: { list(userId: number): Promise<Reminder[]> } }) {
  const { tokens } = deps;

  app.get("/api/calendar/feed", async (request): Promise<CalendarFeed> => {
    const user = requireUser(request);
    return { url: feedUrl(request, await tokens.current(user.id)) };
  });

  app.post("/api/calendar/feed/rotate", async (request): Promise<CalendarFeed> => {
    const user = requireUser(request);
    return { url: feedUrl(request, await tokens.rotate(user.id)) };
  });

  // No session: calendar apps fetch it with the secret address alone (the session guard lets this path through).
  app.get("/api/calendar/:file", async (request, reply) => {
    const params = calendarFeedParamsSchema.safeParse(request.params);
    const userId = params.success ? await tokens.owner(params.data.file.slice(0, -".ics".length)) : null;
    if (userId === null) throw notFound(CALENDAR_FEED_ERRORS.feedNotFound, "feed_not_found");
    const body = remindersIcs(await deps.reminders.list(userId), request.hostname);
    return reply
      .header("content-type", "text/calendar; charset=utf-8")
      .header("cache-control", "private, max-age=300")
      .header("x-robots-tag", "noindex")
      .header("referrer-policy", "no-referrer")
      .send(body);
  });
}
