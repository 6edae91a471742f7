import type { FastifyInstance } from "fastify";
import { idParamsSchema } from "@sage/contracts/common";
import { SCHEDULE_ERRORS, briefingSettingsSchema, createScheduleRequestSchema, updateScheduleRequestSchema } from "@sage/contracts/schedules";
import type { z } from "zod";
import { badRequest, notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { SchedulesService } from "./schedules.service.ts";

/** The contract's messages are whole sentences the settings page shows as they are, so a failure answers the first alone. */
function parseScheduleInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw badRequest(result.error.issues[0]?.message ?? SCHEDULE_ERRORS.rruleInvalid, "validation_error");
}

function parseId(params: unknown): number {
  const result = idParamsSchema.safeParse(params);
  if (!result.success) throw notFound(SCHEDULE_ERRORS.scheduleNotFound, "schedule_not_found");
  return result.data.id;
}

/** /api/schedules: each user's scheduled prompts, Run now, and each schedule's history of runs. */
export function registerScheduleRoutes(app: FastifyInstance, deps: { service: SchedulesService; defaultTimeZone: string }) {
  const { service } = deps;
  // The built-in morning briefing (decision 041): one per user, switched on and set here, listed with the others.
  app.get("/api/schedules/briefing", async (request) => service.briefing(requireUser(request).id, deps.defaultTimeZone));
  app.put("/api/schedules/briefing", async (request) => {
    const user = requireUser(request);
    return service.setBriefing(user.id, parseScheduleInput(briefingSettingsSchema, request.body));
  });

  app.get("/api/schedules", async (request) => service.list(requireUser(request).id));

  app.post("/api/schedules", async (request, reply) => {
    const user = requireUser(request);
    return reply.status(201).send(await service.create(user.id, parseScheduleInput(createScheduleRequestSchema, request.body)));
  });

  app.patch("/api/schedules/:id", async (request) => {
    const user = requireUser(request);
    const id = parseId(request.params);
    return service.update(user.id, id, parseScheduleInput(updateScheduleRequestSchema, request.body));
  });

  app.delete("/api/schedules/:id", async (request) => {
    const user = requireUser(request);
    await service.remove(user.id, parseId(request.params));
    return { ok: true as const };
  });

  app.post("/api/schedules/:id/run", async (request, reply) => {
    const user = requireUser(request);
    return reply.status(202).send(await service.runNow(user.id, parseId(request.params)));
  });

  app.get("/api/schedules/:id/runs", async (request) => {
    const user = requireUser(request);
    return service.runs(user.id, parseId(request.params));
  });
}
