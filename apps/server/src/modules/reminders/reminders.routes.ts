import type { FastifyInstance } from "fastify";
import { okResponseSchema } from "@sage/contracts/auth";
import { idParamsSchema } from "@sage/contracts/common";
import {
  REMINDER_ERRORS,
  createReminderRequestSchema,
  listRemindersQuerySchema,
  reminderListSchema,
  reminderSchema,
  updateReminderRequestSchema,
} from "@sage/contracts/reminders";
import { notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { RemindersService } from "./reminders.service.ts";

/**
 * The contract messages are whole sentences the UI shows as they are ('Title is required'), so a failure answers the
 * first one alone; a malformed id names no reminder of this user.
 */
const invalidInput = {
  query: firstMessage("Invalid reminder"),
  body: firstMessage("Invalid reminder"),
  path: always(() => notFound(REMINDER_ERRORS.reminderNotFound, "reminder_not_found")),
};

export function registerReminderRoutes(app: FastifyInstance, deps: { service: RemindersService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { invalidInput };

  api.get(
    "/api/reminders",
    {
      config,
      schema: { summary: "The user's reminders, of one conversation or all", querystring: listRemindersQuerySchema, response: { 200: reminderListSchema } },
    },
    async (request) => service.list(requireUser(request).id, request.query.conversationId),
  );

  api.post(
    "/api/reminders",
    { config, schema: { summary: "Create a reminder", body: createReminderRequestSchema, response: { 201: reminderSchema } } },
    async (request, reply) => reply.status(201).send(await service.create(requireUser(request).id, request.body)),
  );

  api.patch(
    "/api/reminders/:id",
    { config, schema: { summary: "Change a reminder", params: idParamsSchema, body: updateReminderRequestSchema, response: { 200: reminderSchema } } },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body),
  );

  api.delete(
    "/api/reminders/:id",
    { config, schema: { summary: "Complete (remove) a reminder", params: idParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await service.complete(requireUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );
}
