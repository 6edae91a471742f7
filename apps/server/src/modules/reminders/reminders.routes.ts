import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { REMINDER_ERRORS, createReminderRequestSchema, listRemindersQuerySchema, updateReminderRequestSchema } from "@sage/contracts/reminders";
import type { z } from "zod";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { RemindersService } from "./reminders.service.ts";

/**
 * The contract messages are whole sentences the UI shows as they are ('Title is required'),
 * so a failure answers the first one alone rather than parseInput's "Invalid body: field: ...".
 */
function parseReminderInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw badRequest(result.error.issues[0]?.message ?? "Invalid reminder", "validation_error");
}

function parseId(params: unknown): number {
  const result = idParamsSchema.safeParse(params);
  // A malformed id names no reminder of this user.
  if (!result.success) throw notFound(REMINDER_ERRORS.reminderNotFound, "reminder_not_found");
  return result.data.id;
}

export function registerReminderRoutes(app: FastifyInstance, deps: { service: RemindersService }) {
  const { service } = deps;

  app.get("/api/reminders", async (request) => {
    const user = requireUser(request);
    const { conversationId } = parseReminderInput(listRemindersQuerySchema, request.query);
    return service.list(user.id, conversationId);
  });

  app.post("/api/reminders", async (request, reply) => {
    const user = requireUser(request);
    const input = parseReminderInput(createReminderRequestSchema, request.body);
    return reply.status(201).send(await service.create(user.id, input));
  });

  app.patch("/api/reminders/:id", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    return service.update(user.id, id, parseReminderInput(updateReminderRequestSchema, request.body));
  });

  app.delete("/api/reminders/:id", async (request) => {
    const user = requireUser(request);
    await service.complete(user.id, parseId(request.params));
    return { ok: true as const };
  });
}
