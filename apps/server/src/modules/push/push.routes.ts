import type { FastifyInstance } from "fastify";
import { okResponseSchema } from "@sage/contracts/auth";
import { PUSH_TEXTS, pushSettingsSchema, pushStatusSchema, pushSubscriptionSchema, pushUnsubscribeSchema } from "@sage/contracts/push";
import { badRequest } from "../../http/app-error.ts";
import { always } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { PushService } from "./push.service.ts";

/** A browser sends what it sends: any failure is the one plain sentence, never zod's words. */
const saying = (message: string) => ({ invalidInput: { body: always(() => badRequest(message, "validation_error")) } });

/** /api/push: the public key, this user's devices and which kinds they want pushed. */
export function registerPushRoutes(app: FastifyInstance, deps: { service: PushService }) {
  const { service } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/api/push", { schema: { summary: "The push key, the user's devices and what they get", response: { 200: pushStatusSchema } } }, async (request) =>
    service.status(requireUser(request).id),
  );
  api.post(
    "/api/push/subscriptions",
    {
      config: saying(PUSH_TEXTS.subscriptionInvalid),
      schema: { summary: "Add this browser's push subscription", body: pushSubscriptionSchema, response: { 201: okResponseSchema } },
    },
    async (request, reply) => reply.status(201).send(await service.subscribe(requireUser(request).id, request.body)),
  );
  api.delete(
    "/api/push/subscriptions",
    {
      config: saying(PUSH_TEXTS.subscriptionInvalid),
      schema: { summary: "Remove a push subscription", body: pushUnsubscribeSchema, response: { 200: okResponseSchema } },
    },
    async (request) => service.unsubscribe(requireUser(request).id, request.body.endpoint),
  );
  api.put(
    "/api/push/settings",
    {
      config: saying(PUSH_TEXTS.settingsInvalid),
      schema: { summary: "Which kinds are pushed", body: pushSettingsSchema, response: { 200: pushSettingsSchema } },
    },
    async (request) => service.saveSettings(requireUser(request).id, request.body),
  );
}
