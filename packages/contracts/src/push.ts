import { z } from "zod";

/** What can be pushed; each can be switched off. */
export const PUSH_KINDS = ["reminders", "runs", "approvals"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PUSH_TEXTS = {
  subscriptionInvalid: "The browser's subscription could not be read; turn notifications on again",
  endpointRefused: "This push address cannot be used: it is not a public https address",
  settingsInvalid: "Send reminders, runs and approvals as true or false",
} as const;

/** POST /api/push/subscriptions: the browser's PushSubscription as toJSON() gives it. */
export const pushSubscriptionSchema = z.object(
  {
    endpoint: z.string().url().max(2000),
    keys: z.object({ p256dh: z.string().min(16).max(200), auth: z.string().min(8).max(100) }),
  },
  { error: PUSH_TEXTS.subscriptionInvalid },
);
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /api/push/subscriptions */
export const pushUnsubscribeSchema = z.object({ endpoint: z.string().max(2000) }, { error: PUSH_TEXTS.subscriptionInvalid });

export const pushSettingsSchema = z.object({ reminders: z.boolean(), runs: z.boolean(), approvals: z.boolean() }, { error: PUSH_TEXTS.settingsInvalid });
export type PushSettings = z.infer<typeof pushSettingsSchema>;

/** GET /api/push: the server's public VAPID key (for PushManager.subscribe), the switches, and how many devices are on. */
export const pushStatusSchema = z.object({ publicKey: z.string(), settings: pushSettingsSchema, devices: z.number().int() });
export type PushStatus = z.infer<typeof pushStatusSchema>;

/** What a notification carries (the service worker shows it; a click opens `url`). */
export const pushPayloadSchema = z.object({ kind: z.enum(PUSH_KINDS), title: z.string(), body: z.string(), url: z.string() });
export type PushPayload = z.infer<typeof pushPayloadSchema>;
