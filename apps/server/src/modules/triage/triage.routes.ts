import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  followUpListSchema,
  TRIAGE_TEXTS,
  triageListSchema,
  triageMessageParamsSchema,
  triageQuerySchema,
  triageRulesRequestSchema,
  triageRulesSchema,
  triageSettingsSchema,
  updateTriageSettingsSchema,
} from "@sage/contracts/triage";
import { notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { TriageService } from "./triage.service.ts";

/** The contract's messages are sentences Settings shows as they are; a malformed message id names no mail. */
const invalidInput = {
  query: firstMessage(TRIAGE_TEXTS.labelInvalid),
  body: firstMessage(TRIAGE_TEXTS.nothingToUpdate),
  path: always(() => notFound(TRIAGE_TEXTS.messageNotFound, "message_not_found")),
};

/** /api/triage: the sorted inbox, follow-ups, the user's rules and settings, and a reply draft prepared again. */
export function registerTriageRoutes(app: FastifyInstance, deps: { service: TriageService; queueRound(userId: number): Promise<void> }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { invalidInput };

  api.get(
    "/api/triage",
    {
      config,
      schema: {
        summary: 'The user\'s sorted mail, oldest first; label=needs-reply is "Needs your reply" (what the user answered since is left out)',
        querystring: triageQuerySchema,
        response: { 200: triageListSchema },
      },
    },
    async (request) => service.list(requireUser(request).id, request.query.label),
  );

  api.get(
    "/api/triage/waiting",
    {
      config,
      schema: { summary: 'Mail the user sent that asked for something and has had no answer ("Waiting on others")', response: { 200: followUpListSchema } },
    },
    async (request) => service.waiting(requireUser(request).id),
  );

  api.get(
    "/api/triage/rules",
    { config, schema: { summary: "The user's sorting rules, and how SAGE reads each", response: { 200: triageRulesSchema } } },
    async (request) => service.rules(requireUser(request).id),
  );

  api.put(
    "/api/triage/rules",
    {
      config,
      schema: {
        summary: "Replace the user's sorting rules (one sentence each); they win over the model's label",
        body: triageRulesRequestSchema,
        response: { 200: triageRulesSchema },
      },
    },
    async (request) => service.setRules(requireUser(request).id, request.body.rules),
  );

  api.get("/api/triage/settings", { config, schema: { summary: "Inbox sorting settings", response: { 200: triageSettingsSchema } } }, async (request) =>
    service.settings(requireUser(request).id),
  );

  api.put(
    "/api/triage/settings",
    {
      config,
      schema: {
        summary: "Turn sorting on or off, choose its folders, the follow-up delay and prepared drafts",
        body: updateTriageSettingsSchema,
        response: { 200: triageSettingsSchema },
      },
    },
    async (request) => {
      const userId = requireUser(request).id;
      await service.updateSettings(userId, request.body);
      // Turning sorting on sorts what waits; turning labels on writes those of mail already sorted.
      if (request.body.enabled || request.body.labelInMailbox) await deps.queueRound(userId);
      return service.settings(userId);
    },
  );

  api.post(
    "/api/triage/:messageId/draft",
    {
      config,
      schema: {
        summary: "Prepare the reply (or the nudge) again, saved in the account's Drafts folder and never sent",
        params: triageMessageParamsSchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      await service.prepareDraft(requireUser(request).id, request.params.messageId);
      return { ok: true as const };
    },
  );
}
