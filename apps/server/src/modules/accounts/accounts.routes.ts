import type { FastifyInstance } from "fastify";
import {
  ACCOUNT_ERRORS,
  accountListSchema,
  accountSchema,
  createAccountRequestSchema,
  newAccountRequestSchema,
  testConnectionResponseSchema,
  updateAccountRequestSchema,
  updateCalendarAccountSchema,
  updateContactsAccountSchema,
} from "@sage/contracts/accounts";
import { okResponseSchema } from "@sage/contracts/auth";
import { idParamsSchema } from "@sage/contracts/common";
import { CALENDAR_EVENTS_ERRORS, calendarEventsQuerySchema, calendarEventsResponseSchema } from "@sage/contracts/calendar";
import type { z } from "zod";
import { AppError, badRequest, notFound } from "../../http/app-error.ts";
import { always, type InvalidInputAnswer } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { AccountsService } from "./accounts.service.ts";
import type { CalendarAgenda } from "./calendar-agenda.ts";

/** Events one request may list: a day's or a week's agenda is a handful. */
const EVENTS_LIMIT = 200;

/** The contract's messages are sentences the form shows as they are; a field without its own says which field. */
function accountInputError(issues: readonly z.core.$ZodIssue[]): AppError {
  const issue = issues[0];
  const ours = Object.values(ACCOUNT_ERRORS).includes(issue?.message as never) || issue?.path[0] === "auth";
  return badRequest(ours ? issue!.message : `Invalid ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid value"}`, "validation_error");
}

function parseAccountInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw accountInputError(result.error.issues);
}

/** A body without `auth` (absent or null) is a password account: its failure is told in the password form's words. */
const withoutAuth = (issues: readonly z.core.$ZodIssue[]) =>
  issues.some((issue) => issue.path.length === 0 || (issue.path.length === 1 && issue.path[0] === "auth" && /received (undefined|null)$/.test(issue.message)));

/** POST /api/accounts: the union's failure is the branch the body meant (sign-in with `auth`, else a password account). */
const newAccountInvalid: InvalidInputAnswer = (issues) => {
  const union = issues[0];
  if (union?.code !== "invalid_union" || union.errors.length !== 2) return accountInputError(issues);
  const [signIn, password] = union.errors as [z.core.$ZodIssue[], z.core.$ZodIssue[]];
  return accountInputError(withoutAuth(signIn) ? password : signIn);
};

const accountNotFound = always(() => notFound(ACCOUNT_ERRORS.accountNotFound, "account_not_found"));
const invalidAccount = { path: accountNotFound, body: (issues: readonly z.core.$ZodIssue[]) => accountInputError(issues) };

export function registerAccountRoutes(app: FastifyInstance, deps: { service: AccountsService; agenda: CalendarAgenda }) {
  const { service, agenda } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/calendar/events",
    {
      config: { invalidInput: { query: always(() => badRequest(CALENDAR_EVENTS_ERRORS.range, "validation_error")) } },
      schema: {
        summary: "The connected calendars' events overlapping a range of at most 31 days, earliest first",
        querystring: calendarEventsQuerySchema,
        response: { 200: calendarEventsResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const from = new Date(request.query.from).toISOString();
      const to = new Date(request.query.to).toISOString();
      const events = await agenda.list(user.id, from, to, EVENTS_LIMIT);
      return {
        connected: await agenda.hasCalendar(user.id),
        events: events.map(({ id, title, start, end, allDay, location, calendar }) => ({ id, title, start, end, allDay, location, calendar })),
      };
    },
  );

  api.get(
    "/api/accounts",
    { schema: { summary: "The user's mail, calendar and contacts accounts, never a password or token", response: { 200: accountListSchema } } },
    async (request) => service.list(requireUser(request).id),
  );

  api.post(
    "/api/accounts",
    {
      config: { invalidInput: { body: newAccountInvalid } },
      schema: {
        summary: "Connect an account: with a password, or (mail with `auth`) signing in with Google, Microsoft or the company's provider",
        description:
          "With `auth`, the account is saved without a secret and answers `status: sign-in-needed` with `signInUrl` (/api/oauth/{provider}/start?account={id}), where the browser signs in.",
        body: newAccountRequestSchema,
        response: { 201: accountSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const account = body.auth ? await service.createSignedIn(user.id, body) : await service.create(user.id, body);
      return reply.status(201).send(account);
    },
  );

  api.post(
    "/api/accounts/test",
    {
      config: { invalidInput: invalidAccount },
      schema: {
        summary: "Test connection: logs in and reads (mail: receiving, then sending up to MAIL FROM and RSET), saving nothing",
        body: createAccountRequestSchema,
        response: { 200: testConnectionResponseSchema },
      },
    },
    async (request) => {
      requireUser(request);
      return service.testConnection(request.body);
    },
  );

  api.patch(
    "/api/accounts/:id",
    {
      config: { invalidInput: invalidAccount },
      schema: {
        summary: "Change an account: the body is the fields of its kind (mail, calendar or contacts), a server without a password keeping the stored one",
        params: idParamsSchema,
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.params.id;
      // The body's shape depends on the account's kind, known only once it is read.
      const kind = await service.kindOf(user.id, id);
      if (kind === "calendar") return service.updateCalendar(user.id, id, parseAccountInput(updateCalendarAccountSchema, request.body));
      if (kind === "contacts") return service.updateContacts(user.id, id, parseAccountInput(updateContactsAccountSchema, request.body));
      return service.update(user.id, id, parseAccountInput(updateAccountRequestSchema, request.body));
    },
  );

  api.delete(
    "/api/accounts/:id",
    {
      config: { invalidInput: invalidAccount },
      schema: {
        summary: "Remove an account and its synced mail or events; a signed-in account's token is revoked at the provider",
        params: idParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  api.post(
    "/api/accounts/:id/sync",
    {
      config: { invalidInput: invalidAccount },
      schema: { summary: "Sync now (or say a password or sign-in is needed)", params: idParamsSchema, response: { 202: accountSchema } },
    },
    async (request, reply) => reply.status(202).send(await service.sync(requireUser(request).id, request.params.id)),
  );
}
