import type { FastifyInstance } from "fastify";
import {
  ACCOUNT_ERRORS,
  createAccountRequestSchema,
  signInAccountRequestSchema,
  updateAccountRequestSchema,
  updateCalendarAccountSchema,
  updateContactsAccountSchema,
} from "@sage/contracts/accounts";
import { idParamsSchema } from "@sage/contracts/common";
import { CALENDAR_EVENTS_ERRORS, calendarEventsQuerySchema, type CalendarEventsResponse } from "@sage/contracts/calendar";
import type { z } from "zod";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { AccountsService } from "./accounts.service.ts";
import type { CalendarAgenda } from "./calendar-agenda.ts";

/** Events one request may list: a day's or a week's agenda is a handful. */
const EVENTS_LIMIT = 200;

/** The contract's messages are sentences the form shows as they are; a field without its own says which field. */
function parseAccountInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const ours = Object.values(ACCOUNT_ERRORS).includes(issue?.message as never) || issue?.path[0] === "auth";
  throw badRequest(ours ? issue!.message : `Invalid ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid value"}`, "validation_error");
}

function parseId(params: unknown): number {
  const result = idParamsSchema.safeParse(params);
  if (!result.success) throw notFound(ACCOUNT_ERRORS.accountNotFound, "account_not_found");
  return result.data.id;
}

export function registerAccountRoutes(app: FastifyInstance, deps: { service: AccountsService; agenda: CalendarAgenda }) {
  const { service, agenda } = deps;

  app.get("/api/calendar/events", async (request): Promise<CalendarEventsResponse> => {
    const user = requireUser(request);
    const query = calendarEventsQuerySchema.safeParse(request.query ?? {});
    if (!query.success) throw badRequest(CALENDAR_EVENTS_ERRORS.range, "validation_error");
    const from = new Date(query.data.from).toISOString();
    const to = new Date(query.data.to).toISOString();
    const events = await agenda.list(user.id, from, to, EVENTS_LIMIT);
    return {
      connected: await agenda.hasCalendar(user.id),
      events: events.map(({ id, title, start, end, allDay, location, calendar }) => ({ id, title, start, end, allDay, location, calendar })),
    };
  });

  app.get("/api/accounts", async (request) => service.list(requireUser(request).id));

  app.post("/api/accounts", async (request, reply) => {
    const user = requireUser(request);
    // With `auth`, the account signs in with a provider (no password): it answers sign-in-needed and its signInUrl.
    const body = request.body as { auth?: unknown } | null;
    if (body && typeof body === "object" && body.auth !== undefined && body.auth !== null)
      return reply.status(201).send(await service.createSignedIn(user.id, parseAccountInput(signInAccountRequestSchema, request.body)));
    return reply.status(201).send(await service.create(user.id, parseAccountInput(createAccountRequestSchema, request.body)));
  });

  app.post("/api/accounts/test", async (request) => {
    requireUser(request);
    return service.testConnection(parseAccountInput(createAccountRequestSchema, request.body));
  });

  app.patch("/api/accounts/:id", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    const kind = await service.kindOf(user.id, id);
    if (kind === "calendar") return service.updateCalendar(user.id, id, parseAccountInput(updateCalendarAccountSchema, request.body));
    if (kind === "contacts") return service.updateContacts(user.id, id, parseAccountInput(updateContactsAccountSchema, request.body));
    return service.update(user.id, id, parseAccountInput(updateAccountRequestSchema, request.body));
  });

  app.delete("/api/accounts/:id", async (request) => {
    const user = requireUser(request);
    await service.remove(user.id, parseId(request.params));
    return { ok: true as const };
  });

  app.post("/api/accounts/:id/sync", async (request, reply) => {
    const user = requireUser(request);
    return reply.status(202).send(await service.sync(user.id, parseId(request.params)));
  });
}
