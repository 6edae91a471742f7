import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import type { Message } from "@sage/contracts/conversations";
import type { Reminder } from "@sage/contracts/reminders";
import type { ChannelAdapter } from "../../channels/channel-adapter.ts";
import type { AppModule } from "../../http/app-module.ts";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { Database } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { MailboxPort } from "../accounts/accounts.module.ts";
import type { ConversationTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort, ConversationsPort } from "../conversations/conversations.module.ts";
import type { ReceivedFilesPort } from "../knowledge/knowledge.module.ts";
import type { ApprovalsLike, WatchedApprovals } from "./approval-events.ts";
import { createChannelInbound } from "./channel-inbound.ts";
import { createChannelListeners } from "./channel-listeners.ts";
import { createChannelOutbox } from "./channel-outbox.ts";
import { createChannelsRepo } from "./channels.repo.ts";
import { registerChannelRoutes } from "./channels.routes.ts";
import { createChannelsService, type ChannelSecrets, type ChannelSettings } from "./channels.service.ts";
import { createNotifications, type RunNotifier } from "./notifications.ts";

export { watchApprovals, type WatchedApprovals } from "./approval-events.ts";
export type { RunNotifier } from "./notifications.ts";

/** How often listeners are claimed and renewed and unsent messages retried. */
const ROUND_MS = 10_000;
/** Reminders are looked at every sixth round (once a minute), as web push does. */
const REMINDER_ROUNDS = 6;

export interface ChannelsModule extends AppModule {
  /** The scheduler's news (runs finished, waiting for Approve, the briefing): to push and to the chosen channels. */
  runEvent: RunNotifier;
  /** Whether web push is among a kind's targets (the push module's reminders round asks). */
  pushWanted(userId: number, kind: "reminders" | "runs" | "approvals"): Promise<boolean>;
  /** The assistant's turn, given once the assistant is built (it is built after the modules whose tools it offers). */
  runWith(ports: { turns: ConversationTurnPort }): void;
  /** Tests and the bench: run a round now, and wait until nothing is being handled or sent. */
  control: { round(): Promise<void>; deliverDueReminders(): Promise<void>; idle(): Promise<void> };
}

/**
 * Channels (issue 49): Telegram, Slack and e-mail as ways to talk to SAGE. Each message from the paired chat is a turn
 * of the one server-side turn in the channel's conversation; answers, approval cards and the user's chosen news go out
 * as the channel's own messages. Adapters live in `channels/` and only carry messages (decision 075).
 */
export function createChannelsModule(deps: {
  db: Kysely<Database>;
  box: SecretBox;
  publicUrl: string;
  telegramApiRoot: string;
  slackApiUrl: string;
  maxFileBytes: number;
  /** The user's mail accounts, for e-mail channels. */
  mailbox: MailboxPort;
  approvals: WatchedApprovals<ApprovalsLike>;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  starter: Pick<ConversationStarterPort, "create">;
  messages(userId: number, conversationId: number): Promise<Message[]>;
  files: ReceivedFilesPort;
  push: RunNotifier;
  reminders: { list(userId: number): Promise<Reminder[]> };
  timeZone(userId: number): Promise<string>;
  reminderDue: { at(reminder: Reminder, timeZone: string): number; now(due: number, now: number): boolean };
  now?: () => Date;
  warn(message: string, error?: unknown): void;
  info(message: string, detail: Record<string, unknown>): void;
}): ChannelsModule {
  const now = deps.now ?? (() => new Date());
  const repo = createChannelsRepo(deps.db);
  const owner = randomUUID();
  let turns: ConversationTurnPort | undefined;

  /**
   * The adapter of a channel's kind, loaded on first use (grammY and Bolt cost nothing at start-up for a server without
   * channels): Telegram's bot token, Slack's tokens, or the user's mail account and address.
   */
  async function openAdapter(
    kind: "telegram" | "slack" | "email",
    secrets: ChannelSecrets,
    settings: ChannelSettings,
    userId: number,
  ): Promise<ChannelAdapter> {
    if (kind === "telegram" && secrets.token) {
      const { createTelegramAdapter } = await import("../../channels/telegram/telegram-adapter.ts");
      return createTelegramAdapter({ token: secrets.token, apiRoot: deps.telegramApiRoot });
    }
    if (kind === "slack" && secrets.botToken) {
      const { createSlackAdapter } = await import("../../channels/slack/slack-adapter.ts");
      return createSlackAdapter({ botToken: secrets.botToken, appToken: secrets.appToken, signingSecret: secrets.signingSecret, apiUrl: deps.slackApiUrl });
    }
    if (kind === "email" && settings.accountId && settings.address) {
      const mailbox = await deps.mailbox.open(userId, settings.accountId);
      if (!mailbox) throw notFound(CHANNEL_TEXTS.accountNotFound, "account_not_found");
      const { createEmailAdapter } = await import("../../channels/email/email-adapter.ts");
      return createEmailAdapter({ address: settings.address, mailbox, maxBytes: deps.maxFileBytes });
    }
    throw badRequest(CHANNEL_TEXTS.invalidInput, "channel_invalid");
  }

  const adapters = new Map<number, { sealed: string; adapter: ChannelAdapter }>();
  async function adapterFor(channelId: number): Promise<ChannelAdapter | null> {
    const row = await repo.byId(channelId);
    if (!row) return null;
    const cached = adapters.get(channelId);
    if (cached?.sealed === row.secrets) return cached.adapter;
    const opened = deps.box.open(row.secrets);
    if (opened === null) {
      await channelState(channelId, { message: "SAGE's secret key changed since this bot was connected: connect it again.", refused: true });
      return null;
    }
    const adapter = await openAdapter(row.kind, JSON.parse(opened) as ChannelSecrets, JSON.parse(row.settings) as ChannelSettings, row.userId);
    adapters.set(channelId, { sealed: row.secrets, adapter });
    return adapter;
  }

  async function channelState(channelId: number, problem: { message: string; refused: boolean } | null) {
    const row = await repo.byId(channelId);
    if (!row) return;
    if (!problem) {
      if (row.error !== null) await repo.update(channelId, { error: null, failingSince: null });
      return;
    }
    if (row.error !== problem.message) await repo.update(channelId, { error: problem.message, failingSince: row.failingSince ?? now().toISOString() });
  }

  const outbox = createChannelOutbox({ repo, adapterFor, channelState, now, warn: deps.warn });
  const inbound = createChannelInbound({
    repo,
    outbox,
    adapterFor,
    turns: {
      run: (request) => {
        if (!turns) throw new Error("the channels module was not given the assistant's turn (runWith)");
        return turns.run(request);
      },
    },
    approvals: deps.approvals.port,
    conversations: deps.conversations,
    starter: deps.starter,
    files: deps.files,
    maxFileBytes: deps.maxFileBytes,
    publicUrl: deps.publicUrl,
    now,
    warn: deps.warn,
    info: deps.info,
  });
  const listeners = createChannelListeners({ repo, owner, adapterFor, receive: inbound.receive, channelState, now, warn: deps.warn });
  const notifications = createNotifications({
    repo,
    inbound,
    adapterFor,
    approvals: deps.approvals.port,
    messages: deps.messages,
    push: deps.push,
    reminders: deps.reminders,
    timeZone: deps.timeZone,
    dueAt: deps.reminderDue.at,
    dueNow: deps.reminderDue.now,
    publicUrl: deps.publicUrl,
    now,
    warn: deps.warn,
  });
  const service = createChannelsService({
    repo,
    box: deps.box,
    open: openAdapter,
    async checkMailAccount(userId, accountId) {
      const mailbox = await deps.mailbox.open(userId, accountId);
      if (!mailbox) throw notFound(CHANNEL_TEXTS.accountNotFound, "account_not_found");
      if (!mailbox.canSend) throw badRequest(CHANNEL_TEXTS.accountCannotSend, "account_cannot_send");
    },
    async changed(channelId, removed) {
      adapters.delete(channelId);
      await listeners.restart(channelId);
      if (!removed) await listeners.round();
    },
    now,
  });
  deps.approvals.onSettled(({ approvalId, answer }) => {
    void inbound.closeCards(approvalId, answer).catch((error: unknown) => deps.warn("an approval card could not be closed in its channel", error));
  });

  let rounds = 0;
  async function round() {
    await listeners.round();
    await outbox.retryDue();
    if (rounds++ % REMINDER_ROUNDS === 0) await notifications.deliverDueReminders();
  }
  let timer: NodeJS.Timeout | undefined;

  return {
    runEvent: notifications.runEvent,
    pushWanted: notifications.pushWanted,
    runWith(ports) {
      turns = ports.turns;
    },
    control: {
      round,
      deliverDueReminders: notifications.deliverDueReminders,
      async idle() {
        await inbound.idle();
        await notifications.idle();
        await outbox.idle();
      },
    },
    async register(app) {
      await registerChannelRoutes(app, {
        service,
        notifications,
        async serviceRequest(channelId, request) {
          const row = await repo.byId(channelId);
          const adapter = row ? await adapterFor(channelId) : null;
          if (!adapter?.handleRequest) throw notFound(CHANNEL_TEXTS.notFound, "channel_not_found");
          const answer = adapter.handleRequest(request);
          if (answer.inbound.length > 0) await inbound.receive(channelId, answer.inbound, null);
          return { status: answer.status, body: answer.body as Record<string, unknown> };
        },
      });
      app.addHook("onReady", async () => {
        await inbound.resume();
        void round().catch((error: unknown) => deps.warn("the channels round failed", error));
        timer = setInterval(() => void round().catch((error: unknown) => deps.warn("the channels round failed", error)), ROUND_MS);
        timer.unref();
      });
      app.addHook("onClose", async () => {
        clearInterval(timer);
        await listeners.close();
        await inbound.close();
        await notifications.idle();
        await outbox.close();
      });
    },
  };
}
