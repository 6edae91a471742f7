import { CHANNEL_TEXTS, NOTIFICATION_KINDS, type NotificationKind, type NotificationTargets } from "@sage/contracts/channels";
import type { Message } from "@sage/contracts/conversations";
import type { Reminder } from "@sage/contracts/reminders";
import { badRequest } from "../../http/app-error.ts";
import type { ApprovalsLike } from "./approval-events.ts";
import { markdownLiteral } from "./approval-card.ts";
import type { ChannelInboundHandler } from "./channel-inbound.ts";
import type { ChannelRow, ChannelsRepo } from "./channels.repo.ts";

/** Until the user chooses, everything goes where it went before channels existed: web push. */
export const DEFAULT_TARGETS: NotificationTargets = { briefing: ["push"], reminders: ["push"], runs: ["push"], approvals: ["push"] };

/** What the scheduler says: a run ended (how, and whether it was the briefing), or a run waits for Approve. */
export type RunNotifier = (
  userId: number,
  kind: "runs" | "approvals",
  title: string,
  conversationId: number,
  outcome?: string,
  /** `body`: what a push says instead of the run's outcome (a meeting's dossier is ready). */
  details?: { briefing?: boolean; messageIds?: number[]; body?: string },
) => void;

export interface NotificationsDeps {
  repo: ChannelsRepo;
  inbound: Pick<ChannelInboundHandler, "say" | "sendCard">;
  adapterFor(channelId: number): Promise<import("../../channels/channel-adapter.ts").ChannelAdapter | null>;
  approvals: Pick<ApprovalsLike, "pending">;
  /** The messages a run wrote (the briefing's text and sources). */
  messages(userId: number, conversationId: number): Promise<Message[]>;
  /** Web push, as before (the push module's own switches still apply). */
  push: RunNotifier;
  reminders: { list(userId: number): Promise<Reminder[]> };
  timeZone(userId: number): Promise<string>;
  dueAt(reminder: Reminder, timeZone: string): number;
  dueNow(due: number, now: number): boolean;
  publicUrl: string;
  now: () => Date;
  warn(message: string, error?: unknown): void;
}

/**
 * Where SAGE reaches the user outside the app (PUT /api/notifications/targets): for the morning briefing, reminders,
 * finished scheduled runs and runs waiting for Approve, web push and any paired channel, in any mix. A channel gets
 * the briefing itself (its sources as links to SAGE), the reminder, the run's outcome with a link, and the waiting
 * approval's card with its buttons.
 */
export function createNotifications(deps: NotificationsDeps) {
  const { repo } = deps;
  const pending = new Set<Promise<unknown>>();

  async function targets(userId: number): Promise<NotificationTargets> {
    const saved = await repo.targets(userId);
    const mine = new Set((await repo.list(userId)).map((channel) => `channel:${channel.id}`));
    // A deleted channel drops out of every list.
    const keep = (list: string[]) => list.filter((target) => target === "push" || mine.has(target));
    return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, keep(saved[kind] ?? DEFAULT_TARGETS[kind])])) as NotificationTargets;
  }

  /** The user's paired channels among a kind's targets. */
  async function channelsFor(userId: number, kind: NotificationKind): Promise<ChannelRow[]> {
    const wanted = (await targets(userId))[kind].filter((target) => target.startsWith("channel:")).map((target) => Number(target.slice(8)));
    const rows = await repo.list(userId);
    return rows.filter((row) => wanted.includes(row.id) && row.status === "paired" && row.chatId);
  }

  const chatOf = (channel: ChannelRow, subject: string) => ({ chatId: channel.chatId!, subject });
  const link = (conversationId: number) => `${deps.publicUrl}/conversations/${conversationId}`;

  async function deliverRun(...[userId, kind, title, conversationId, outcome = "succeeded", details = {}]: Parameters<RunNotifier>) {
    const which: NotificationKind = kind === "approvals" ? "approvals" : details.briefing ? "briefing" : "runs";
    if ((await targets(userId))[which].includes("push")) deps.push(userId, kind, title, conversationId, outcome, details);
    for (const channel of await channelsFor(userId, which)) {
      if (which === "approvals") {
        const waiting = (await deps.approvals.pending(userId)).filter((request) => request.conversationId === conversationId);
        const adapter = await deps.adapterFor(channel.id);
        if (!adapter) continue;
        for (const request of waiting) {
          if (await repo.card(channel.id, request.approvalId)) continue;
          await deps.inbound.sendCard(channel, chatOf(channel, title), request, adapter);
        }
        continue;
      }
      if (which === "briefing") {
        const written = (await deps.messages(userId, conversationId)).filter((message) => details.messageIds?.includes(message.id) && message.role === "model");
        for (const message of written) {
          const citations = message.citations ?? [];
          const sources = citations.map((citation) => `${citation.n}. [${markdownLiteral(citation.filename || citation.source)}](${link(conversationId)})`);
          const markdown = `**${markdownLiteral(title || CHANNEL_TEXTS.briefingTitle)}**\n\n${message.content}${sources.length ? `\n\n**${CHANNEL_TEXTS.sources}**\n\n${sources.join("\n")}` : ""}`;
          await deps.inbound.say(channel.id, chatOf(channel, title || CHANNEL_TEXTS.briefingTitle), markdown, {
            cite: (n) => (citations.some((citation) => citation.n === n) ? link(conversationId) : undefined),
          });
        }
        continue;
      }
      const sentence =
        outcome === "succeeded"
          ? CHANNEL_TEXTS.runFinished(title)
          : outcome === "not-approved"
            ? CHANNEL_TEXTS.runStopped(title)
            : CHANNEL_TEXTS.runFailed(title);
      await deps.inbound.say(channel.id, chatOf(channel, title), `${markdownLiteral(sentence)} [${CHANNEL_TEXTS.openInSage}](${link(conversationId)})`);
    }
  }

  return {
    targets,
    async saveTargets(userId: number, wanted: NotificationTargets): Promise<NotificationTargets> {
      const mine = new Set((await repo.list(userId)).map((channel) => `channel:${channel.id}`));
      for (const list of Object.values(wanted)) {
        const unknown = list.find((target) => target !== "push" && !mine.has(target));
        if (unknown) throw badRequest(CHANNEL_TEXTS.targetUnknown(unknown), "unknown_target");
      }
      const unique = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, [...new Set(wanted[kind])]])) as NotificationTargets;
      await repo.saveTargets(userId, unique);
      return targets(userId);
    },
    /** Whether web push is among a kind's targets (the push module asks before its reminders round pushes). */
    async pushWanted(userId: number, kind: NotificationKind) {
      return (await targets(userId))[kind].includes("push");
    },
    /** The scheduler's news: sent without waiting, kept track of for `idle`. */
    runEvent: ((...args: Parameters<RunNotifier>) => {
      const sending = deliverRun(...args)
        .catch((error: unknown) => deps.warn("a notification could not be delivered to a channel", error))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    }) as RunNotifier,
    /** The minute's round: reminders that fell due go to the channels chosen for them, once per due date. */
    async deliverDueReminders() {
      const now = deps.now().getTime();
      for (const userId of await repo.usersWithReminderChannels()) {
        const channels = await channelsFor(userId, "reminders");
        if (channels.length === 0) continue;
        const timeZone = await deps.timeZone(userId);
        for (const reminder of await deps.reminders.list(userId)) {
          if (!deps.dueNow(deps.dueAt(reminder, timeZone), now)) continue;
          if (!(await repo.markReminderSent(reminder.id, reminder.dueDate))) continue;
          const where = reminder.conversationId ? ` [${CHANNEL_TEXTS.openInSage}](${link(reminder.conversationId)})` : "";
          const markdown = `**${markdownLiteral(CHANNEL_TEXTS.reminderDue(reminder.title))}**${reminder.description ? `\n\n${markdownLiteral(reminder.description)}` : ""}${where}`;
          for (const channel of channels) await deps.inbound.say(channel.id, chatOf(channel, CHANNEL_TEXTS.reminderDue(reminder.title)), markdown);
        }
      }
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type Notifications = ReturnType<typeof createNotifications>;
