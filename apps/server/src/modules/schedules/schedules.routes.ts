import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { okResponseSchema } from "@sage/contracts/auth";
import { idParamsSchema } from "@sage/contracts/common";
import {
  SCHEDULE_ERRORS,
  briefingSchema,
  briefingSettingsSchema,
  createScheduleRequestSchema,
  scheduleListSchema,
  scheduleRunListSchema,
  scheduleRunSchema,
  scheduleSchema,
  updateScheduleRequestSchema,
  webhookDeliverySchema,
  webhookParamsSchema,
  weeklyReviewSchema,
  weeklyReviewSettingsSchema,
} from "@sage/contracts/schedules";
import { notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { ScheduleTriggers } from "./schedule-triggers.ts";
import type { SchedulesService } from "./schedules.service.ts";

/** The most a webhook's body may be: what a run reads of it is shorter still (TRIGGER_TEXT_MAX). */
const WEBHOOK_BODY_MAX = 256 * 1024;

/** The contract's messages are whole sentences the settings page shows as they are, so a failure answers the first alone. */
const config = {
  invalidInput: {
    body: firstMessage(SCHEDULE_ERRORS.rruleInvalid),
    path: always(() => notFound(SCHEDULE_ERRORS.scheduleNotFound, "schedule_not_found")),
  },
};

/** /api/schedules: each user's scheduled prompts, Run now, and each schedule's history of runs. */
export async function registerScheduleRoutes(app: FastifyInstance, deps: { service: SchedulesService; triggers: ScheduleTriggers; defaultTimeZone: string }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The built-in morning briefing (decision 041): one per user, switched on and set here, listed with the others.
  api.get("/api/schedules/briefing", { schema: { summary: "The morning briefing's settings", response: { 200: briefingSchema } } }, async (request) =>
    service.briefing(requireUser(request).id, deps.defaultTimeZone),
  );
  api.put(
    "/api/schedules/briefing",
    { config, schema: { summary: "Switch the morning briefing on or off and set it", body: briefingSettingsSchema, response: { 200: briefingSchema } } },
    async (request) => service.setBriefing(requireUser(request).id, request.body),
  );

  // The weekly review (issue 53, decision 106): a template beside the briefing, offered the same way.
  api.get("/api/schedules/weekly-review", { schema: { summary: "The weekly review's settings", response: { 200: weeklyReviewSchema } } }, async (request) =>
    service.weeklyReview(requireUser(request).id, deps.defaultTimeZone),
  );
  api.put(
    "/api/schedules/weekly-review",
    {
      config,
      schema: {
        summary: "Switch the weekly review on or off and set its day and time",
        body: weeklyReviewSettingsSchema,
        response: { 200: weeklyReviewSchema },
      },
    },
    async (request) => service.setWeeklyReview(requireUser(request).id, request.body),
  );

  // A webhook schedule's secret address (decision 105): no session (another service calls it), any body read as text
  // (it reaches the run as untrusted content); a secret that is no schedule's is a 404, whatever the body.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: WEBHOOK_BODY_MAX }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/hooks/:secret",
      {
        config: { invalidInput: { path: always(() => notFound()) } },
        schema: {
          summary: "Set off a webhook schedule: one run per delivery (the same Idempotency-Key twice is one run)",
          security: [],
          params: webhookParamsSchema,
          body: z.unknown(),
          response: { 202: webhookDeliverySchema },
        },
      },
      async (request, reply) => {
        const key = request.headers["idempotency-key"];
        const body = typeof request.body === "string" ? request.body : "";
        return reply.status(202).send(await deps.triggers.deliver(request.params.secret, Array.isArray(key) ? key[0] : key, body));
      },
    );
  });

  api.get("/api/schedules", { schema: { summary: "The user's schedules", response: { 200: scheduleListSchema } } }, async (request) =>
    service.list(requireUser(request).id),
  );

  api.post(
    "/api/schedules",
    { config, schema: { summary: "Create a schedule", body: createScheduleRequestSchema, response: { 201: scheduleSchema } } },
    async (request, reply) => reply.status(201).send(await service.create(requireUser(request).id, request.body)),
  );

  api.patch(
    "/api/schedules/:id",
    {
      config,
      schema: { summary: "Change, pause or resume a schedule", params: idParamsSchema, body: updateScheduleRequestSchema, response: { 200: scheduleSchema } },
    },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body),
  );

  api.delete(
    "/api/schedules/:id",
    { config, schema: { summary: "Delete a schedule", params: idParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );

  api.post(
    "/api/schedules/:id/run",
    { config, schema: { summary: "Run a schedule now", params: idParamsSchema, response: { 202: scheduleRunSchema } } },
    async (request, reply) => reply.status(202).send(await service.runNow(requireUser(request).id, request.params.id)),
  );

  api.get(
    "/api/schedules/:id/runs",
    { config, schema: { summary: "A schedule's runs, newest first", params: idParamsSchema, response: { 200: scheduleRunListSchema } } },
    async (request) => service.runs(requireUser(request).id, request.params.id),
  );
}
