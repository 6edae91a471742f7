import type { FastifyInstance, FastifyRequest } from "fastify";
import { CALENDAR_FEED_ERRORS, calendarFeedParamsSchema, timeZoneRequestSchema, type CalendarFeed, type TimeZoneSetting } from "@sage/contracts/calendar";
import type { Reminder } from "@sage/contracts/reminders";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { FeedTokens, TimeZones } from "./feed-tokens.ts";
import { remindersIcs } from "./reminders-ics.ts";

/** The address a calendar app subscribes to, on the host the user reached SAGE by (checked by the host guard). */
const feedUrl = (request: FastifyRequest, token: string) => `${request.protocol}://${request.host}/api/calendar/${token}.ics`;

export function registerCalendarFeedRoutes(
  app: FastifyInstance,
  deps: {
    tokens: FeedTokens;
    reminders: { list(userId: number): Promise<Reminder[]> };
    timeZones: TimeZones;
    defaultTimeZone: string;
    timeZoneChanged(userId: number): Promise<unknown>;
  },
) {
  const { tokens, timeZones } = deps;

  const timeZoneOf = async (userId: number): Promise<TimeZoneSetting> => {
    const saved = await timeZones.get(userId);
    return { timeZone: saved ?? deps.defaultTimeZone, saved: saved !== null };
  };

  app.get("/api/calendar/time-zone", async (request) => timeZoneOf(requireUser(request).id));

  app.put("/api/calendar/time-zone", async (request) => {
    const user = requireUser(request);
    const parsed = timeZoneRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(CALENDAR_FEED_ERRORS.timeZoneInvalid, "validation_error");
    await timeZones.set(user.id, parsed.data.timeZone);
    await deps.timeZoneChanged(user.id);
    return timeZoneOf(user.id);
  });

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
