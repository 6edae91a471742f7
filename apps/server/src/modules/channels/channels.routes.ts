import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { okResponseSchema } from "@sage/contracts/auth";
import {
  CHANNEL_TEXTS,
  channelListSchema,
  channelSchema,
  createChannelSchema,
  notificationTargetsSchema,
  pairingResponseSchema,
  updateChannelSchema,
} from "@sage/contracts/channels";
import { idParamsSchema } from "@sage/contracts/common";
import { AppError, notFound } from "../../http/app-error.ts";
import { always, firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { ChannelsService } from "./channels.service.ts";
import type { Notifications } from "./notifications.ts";

/** The contract's messages are sentences Settings > Channels shows as they are; a malformed id names no channel. */
const invalidInput = {
  body: firstMessage(CHANNEL_TEXTS.invalidInput),
  path: always(() => notFound(CHANNEL_TEXTS.notFound, "channel_not_found")),
};
const targetsInvalid = { body: firstMessage(CHANNEL_TEXTS.targetsInvalid) };

/** What a service posted to SAGE, answered by the channel's adapter (Slack's Events API). */
export type ServiceRequestHandler = (
  channelId: number,
  request: { body: string; headers: Record<string, string | string[] | undefined> },
) => Promise<{ status: number; body: Record<string, unknown> }>;

/** /api/channels (Settings > Channels) and /api/notifications/targets: thin over the service. */
export async function registerChannelRoutes(
  app: FastifyInstance,
  deps: { service: ChannelsService; notifications: Notifications; serviceRequest: ServiceRequestHandler },
) {
  const { service, notifications } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { invalidInput };

  api.get(
    "/api/channels",
    { schema: { summary: "The user's channels (Telegram, Slack, e-mail), never a token", response: { 200: channelListSchema } } },
    async (request) => ({ channels: await service.list(requireUser(request).id) }),
  );
  api.post(
    "/api/channels",
    {
      config,
      schema: {
        summary: "Connect a bot (checked with its service, tokens sealed); answers its first pairing code",
        body: createChannelSchema,
        response: { 201: pairingResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(requireUser(request).id, request.body)),
  );
  api.patch(
    "/api/channels/:id",
    {
      config,
      schema: { summary: "Allow the next pairing to be a group chat", params: idParamsSchema, body: updateChannelSchema, response: { 200: channelSchema } },
    },
    async (request) => service.update(requireUser(request).id, request.params.id, request.body),
  );
  api.delete(
    "/api/channels/:id",
    { config, schema: { summary: "Disconnect a channel", params: idParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );
  api.post(
    "/api/channels/:id/pairing",
    { config, schema: { summary: "A new one-time pairing code", params: idParamsSchema, response: { 200: pairingResponseSchema } } },
    async (request) => service.pairing(requireUser(request).id, request.params.id),
  );
  // Slack's Events API: no session (Slack is the caller); the channel's signing secret signs each request, checked on
  // the raw body, so this route reads its body as text (JSON events, or interactivity's form).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(["application/json", "application/x-www-form-urlencoded"], { parseAs: "string" }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/channels/:id/slack-events",
      {
        config,
        schema: {
          summary: "Slack's Events API and interactivity (signed with the channel's signing secret)",
          security: [],
          params: idParamsSchema,
          body: z.string(),
          response: { 200: z.record(z.string(), z.unknown()) },
        },
      },
      async (request, reply) => {
        const answer = await deps.serviceRequest(request.params.id, { body: request.body, headers: request.headers });
        if (answer.status !== 200) throw new AppError("bad_signature", answer.status, CHANNEL_TEXTS.badSignature);
        return reply.status(200).send(answer.body);
      },
    );
  });
  api.get(
    "/api/notifications/targets",
    { schema: { summary: "Where the briefing, reminders, runs and approvals reach the user", response: { 200: notificationTargetsSchema } } },
    async (request) => notifications.targets(requireUser(request).id),
  );
  api.put(
    "/api/notifications/targets",
    {
      config: { invalidInput: targetsInvalid },
      schema: { summary: "Choose web push and channels per kind of news", body: notificationTargetsSchema, response: { 200: notificationTargetsSchema } },
    },
    async (request) => notifications.saveTargets(requireUser(request).id, request.body),
  );
}
