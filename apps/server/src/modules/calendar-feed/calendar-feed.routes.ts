import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  CALENDAR_FEED_ERRORS,
  calendarFeedParamsSchema,
  calendarFeedSchema,
  timeZoneRequestSchema,
  timeZoneSettingSchema,
  type TimeZoneSetting,
} from "@sage/contracts/calendar";
import type { Reminder } from "@sage/contracts/reminders";
import { badRequest, notFound } from "../../http/app-error.ts";
import { always } from "../../http/invalid-input.ts";
import { mediaResponse, type ZodTypeProvider } from "../../http/route-contracts.ts";
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

  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/calendar/time-zone", { schema: { summary: "The user's time zone", response: { 200: timeZoneSettingSchema } } }, async (request) =>
    timeZoneOf(requireUser(request).id),
  );

  api.put(
    "/api/calendar/time-zone",
    {
      config: { invalidInput: { body: always(() => badRequest(CALENDAR_FEED_ERRORS.timeZoneInvalid, "validation_error")) } },
      schema: { summary: "Set the user's time zone", body: timeZoneRequestSchema, response: { 200: timeZoneSettingSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await timeZones.set(user.id, request.body.timeZone);
      await deps.timeZoneChanged(user.id);
      return timeZoneOf(user.id);
    },
  );

  api.get("/api/calendar/feed", { schema: { summary: "The reminders feed's secret address", response: { 200: calendarFeedSchema } } }, async (request) => {
    const user = requireUser(request);
    return { url: feedUrl(request, await tokens.current(user.id)) };
  });

  api.post(
    "/api/calendar/feed/rotate",
    { schema: { summary: "A new secret address for the feed (the old one stops working)", response: { 200: calendarFeedSchema } } },
    async (request) => {
      const user = requireUser(request);
      return { url: feedUrl(request, await tokens.rotate(user.id)) };
    },
  );

  // No session: calendar apps fetch it with the secret address alone (the session guard lets this path through).
  const feedNotFound = always(() => notFound(CALENDAR_FEED_ERRORS.feedNotFound, "feed_not_found"));
  api.get(
    "/api/calendar/:file",
    {
      config: { invalidInput: { path: feedNotFound } },
      schema: {
        summary: "The reminders as an iCalendar feed, at its secret address",
        security: [],
        params: calendarFeedParamsSchema,
        response: { 200: mediaResponse("text/calendar", "The user's reminders as iCalendar events") },
      },
    },
    async (request, reply) => {
      const userId = await tokens.owner(request.params.file.slice(0, -".ics".length));
      if (userId === null) throw notFound(CALENDAR_FEED_ERRORS.feedNotFound, "feed_not_found");
      const body = remindersIcs(await deps.reminders.list(userId), request.hostname);
      return reply
        .header("content-type", "text/calendar; charset=utf-8")
        .header("cache-control", "private, max-age=300")
        .header("x-robots-tag", "noindex")
        .header("referrer-policy", "no-referrer")
        .send(body);
    },
  );
}
