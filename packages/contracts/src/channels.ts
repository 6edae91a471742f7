import { z } from "zod";

/** Where SAGE can be talked to besides the web app (issue 49, decisions 075-079). */
export const CHANNEL_KINDS = ["telegram", "slack", "email"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** What the Settings > Channels page and the channels themselves say, in plain words. */
export const CHANNEL_TEXTS = {
  kindNames: { telegram: "Telegram", slack: "Slack", email: "E-mail" } as Record<ChannelKind, string>,
  invalidInput: "Give a Telegram bot token, a Slack bot token with an app token or signing secret, or a mail account and address",
  telegramToken: "This does not look like a Telegram bot token (it reads like 123456789:AA...; BotFather gives it)",
  slackBotToken: "A Slack bot token starts with xoxb- (OAuth & Permissions > Bot User OAuth Token)",
  slackAppToken: "A Slack app-level token starts with xapp- (Basic Information > App-Level Tokens, with connections:write)",
  slackMode: "Give the app-level token (Socket Mode) or the signing secret (Events API)",
  tokenRefused: (kind: string) => `${kind} did not accept this token. Check that you copied all of it.`,
  unreachable: (kind: string) => `${kind} could not be reached. SAGE keeps trying.`,
  accountNotFound: "No mail account of yours has this id",
  accountCannotSend: "This mail account has no SMTP server to answer from: add one in Settings > Accounts",
  duplicate: "This bot is already connected",
  badSignature: "This request is not signed by Slack for this channel",
  notFound: "No channel of yours has this id",
  targetsInvalid: 'Give each of briefing, reminders, runs and approvals as a list of "push" or "channel:ID"',
  targetUnknown: (target: string) => `No channel of yours is ${target}`,
  // What SAGE says in the chat itself.
  paired: (title: string) =>
    `Hello ${title}. This chat is now connected to SAGE: write to me here as you would in the app. Approvals, briefings and reminders can come here too (Settings > Channels).`,
  wrongCode: "That code is not right, or it expired. Make a new one in SAGE: Settings > Channels.",
  notPaired: "This chat is not connected yet. In SAGE, open Settings > Channels and send me the code shown there.",
  refused: "Sorry, this is a private assistant: it only talks with the person who set it up.",
  groupRefused: "Sorry, this assistant is not used in groups.",
  tooManyTries: "Too many wrong codes from this chat. Make a new code in SAGE and try again later.",
  approve: "Approve",
  decline: "Decline",
  approved: "Approved",
  declined: "Declined",
  timedOut: "Not answered in time; nothing was done",
  answeredElsewhere: (answer: string) => `${answer} in SAGE`,
  notYours: "Only the person who set up this assistant can answer this.",
  cardGone: "This request is no longer waiting for an answer.",
  approveInApp: "Open SAGE to approve or decline:",
  cardTitle: "SAGE asks before going ahead",
  typingWhileWaiting: "I am waiting for your answer to the request above; your message will be read after it.",
  sources: "Sources",
  fileTooLarge: (name: string) => `${name} is too large for SAGE to read.`,
  fileUnreadable: (name: string) => `${name} could not be read.`,
  emailTurn: "[An e-mail to SAGE; its text is attached]",
  forwarded: (from: string) => `Forwarded message${from ? ` from ${from}` : ""}`,
  quoted: (from: string) => `Quoted message${from ? ` from ${from}` : ""}`,
  briefingTitle: "Your morning briefing",
  reminderDue: (title: string) => `Reminder: ${title}`,
  runFinished: (title: string) => `SAGE finished "${title}".`,
  runStopped: (title: string) => `"${title}" stopped: a step was not approved.`,
  runFailed: (title: string) => `"${title}" could not finish.`,
  openInSage: "Open in SAGE",
} as const;

const telegramToken = z
  .string()
  .trim()
  .regex(/^\d{3,15}:[A-Za-z0-9_-]{30,80}$/, CHANNEL_TEXTS.telegramToken);

/** POST /api/channels: a bot to connect (its tokens are sealed like passwords and never shown again). */
export const createChannelSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("telegram"), token: telegramToken }),
    z
      .object({
        kind: z.literal("slack"),
        botToken: z
          .string()
          .trim()
          .regex(/^xoxb-[A-Za-z0-9-]{10,250}$/, CHANNEL_TEXTS.slackBotToken),
        appToken: z
          .string()
          .trim()
          .regex(/^xapp-[A-Za-z0-9-]{10,250}$/, CHANNEL_TEXTS.slackAppToken)
          .optional(),
        signingSecret: z
          .string()
          .trim()
          .regex(/^[0-9a-f]{20,100}$/i, CHANNEL_TEXTS.slackMode)
          .optional(),
      })
      .refine((value) => Boolean(value.appToken) !== Boolean(value.signingSecret), { message: CHANNEL_TEXTS.slackMode, path: ["appToken"] }),
    z.object({ kind: z.literal("email"), accountId: z.number().int().positive(), address: z.string().trim().toLowerCase().email().max(254) }),
  ],
  { error: CHANNEL_TEXTS.invalidInput },
);
export type CreateChannelInput = z.infer<typeof createChannelSchema>;

/** PATCH /api/channels/{id}: whether the next pairing may be a group chat (groups are off unless allowed). */
export const updateChannelSchema = z.object({ allowGroup: z.boolean() }).strict();
export type UpdateChannelInput = z.infer<typeof updateChannelSchema>;

export const CHANNEL_STATUSES = ["unpaired", "paired", "error"] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

/** GET /api/channels' items: never a token. */
export const channelSchema = z.object({
  id: z.number().int(),
  kind: z.enum(CHANNEL_KINDS),
  status: z.enum(CHANNEL_STATUSES),
  /** The bot's name (@SageBot), the Slack workspace and bot, or the e-mail address written to. */
  name: z.string(),
  /** The paired chat: a private chat's user name, a group's title, or the e-mail address that paired. */
  chat: z.object({ title: z.string(), group: z.boolean() }).optional(),
  /** Why the channel does not work now, in plain words; null when it works. */
  error: z.string().nullable(),
  /** When the current pairing code stops working (it is shown once, when made). */
  pairingExpiresAt: z.string().nullable(),
  /** Whether the next pairing may be a group chat. */
  allowGroup: z.boolean(),
  /** The conversation the channel's messages are turns of (null until the first). */
  conversationId: z.number().int().nullable(),
  /** Messages from other chats and people, refused and never read by the model. */
  refused: z.object({ count: z.number().int(), lastAt: z.string().nullable() }),
  /** Messages SAGE could not deliver yet (kept in the conversation; retried). */
  unsent: z.number().int(),
  createdAt: z.string(),
});
export type Channel = z.infer<typeof channelSchema>;
export const channelListSchema = z.object({ channels: z.array(channelSchema) });

/** POST /api/channels (201) and POST /api/channels/{id}/pairing: the one-time code to send from the chat. */
export const pairingResponseSchema = z.object({
  id: z.number().int(),
  kind: z.enum(CHANNEL_KINDS),
  status: z.enum(CHANNEL_STATUSES),
  pairingCode: z.string(),
  pairingExpiresAt: z.string(),
  /** How to send it: a t.me link for Telegram, the address for e-mail, the bot's name for Slack. */
  pairingHint: z.string(),
});
export type PairingResponse = z.infer<typeof pairingResponseSchema>;

/** What SAGE delivers outside the web app, and where. */
export const NOTIFICATION_KINDS = ["briefing", "reminders", "runs", "approvals"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
const target = z.string().regex(/^(push|channel:[1-9]\d{0,15})$/, CHANNEL_TEXTS.targetsInvalid);
/** PUT/GET /api/notifications/targets: `push` (the browser's notifications) and `channel:ID`, per kind. */
export const notificationTargetsSchema = z
  .object({
    briefing: z.array(target).max(20),
    reminders: z.array(target).max(20),
    runs: z.array(target).max(20),
    approvals: z.array(target).max(20),
  })
  .strict();
export type NotificationTargets = z.infer<typeof notificationTargetsSchema>;
