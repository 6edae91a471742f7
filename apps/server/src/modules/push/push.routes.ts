import type { FastifyInstance } from "fastify";
import { PUSH_TEXTS, pushSettingsSchema, pushSubscriptionSchema, pushUnsubscribeSchema } from "@sage/contracts/push";
import type { z } from "zod";
import { badRequest } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { PushService } from "./push.service.ts";

/** A browser sends what it sends: any failure is the one plain sentence, never zod's words. */
function parse<S extends z.ZodType>(schema: S, input: unknown, message: string): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(message, "validation_error");
  return result.data;
}

/** /api/push: the public key, this user's devices and which kinds they want pushed. */
export function registerPushRoutes(app: FastifyInstance, deps: { service: PushService }) {
  const { service } = deps;
  app.get("/api/push", async (request) => service.status(requireUser(request).id));
  app.post("/api/push/subscriptions", async (request, reply) => {
    const user = requireUser(request);
    return reply.status(201).send(await service.subscribe(user.id, parse(pushSubscriptionSchema, request.body, PUSH_TEXTS.subscriptionInvalid)));
  });
  app.delete("/api/push/subscriptions", async (request) => {
    const user = requireUser(request);
    return service.unsubscribe(user.id, parse(pushUnsubscribeSchema, request.body, PUSH_TEXTS.subscriptionInvalid).endpoint);
  });
  app.put("/api/push/settings", async (request) => {
    const user = requireUser(request);
    return service.saveSettings(user.id, parse(pushSettingsSchema, request.body, PUSH_TEXTS.settingsInvalid));
  });
}
