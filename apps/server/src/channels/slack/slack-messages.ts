import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import type { ChannelAction, ChannelFile, ChannelMessage, OutgoingMessage } from "../channel-adapter.ts";

/** The parts of a Slack `message` event SAGE reads (api.slack.com/events/message). */
export interface SlackMessageEvent {
  type: "message";
  subtype?: string;
  channel: string;
  channel_type?: "im" | "channel" | "group" | "mpim" | "app_home";
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  files?: { id: string; name?: string; title?: string; mimetype?: string; size?: number; url_private_download?: string; url_private?: string }[];
  /** A shared (forwarded) message, or a link's unfurl. */
  attachments?: { is_share?: boolean; is_msg_unfurl?: boolean; text?: string; fallback?: string; author_name?: string; author_subname?: string }[];
}

/** A Block Kit button press (api.slack.com/reference/interaction-payloads/block-actions-payload). */
export interface SlackBlockActions {
  type: "block_actions";
  user: { id: string; username?: string; name?: string };
  channel?: { id: string; name?: string };
  container?: { type: string; message_ts?: string; channel_id?: string };
  message?: { ts: string };
  actions: { action_id: string; value?: string; action_ts?: string }[];
  trigger_id?: string;
}

/** Slack's escapes undone, and its links and mentions written as words (mrkdwn into plain text). */
export function slackToText(text: string): string {
  return text
    .replace(/<(https?:[^>|]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<(https?:[^>]+)>/g, "$1")
    .replace(/<mailto:([^>|]+)\|([^>]+)>/g, "$2")
    .replace(/<@([A-Z0-9]+)(?:\|([^>]+))?>/g, (_all, id: string, name?: string) => `@${name ?? id}`)
    .replace(/<#[A-Z0-9]+\|([^>]+)>/g, "#$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Subtypes that are a person writing (a plain message, one with files); edits, joins and bots are not. */
const WRITTEN = new Set([undefined, "file_share", "thread_broadcast"]);

/**
 * A Slack message as a channel message: what the user wrote, with quoted lines ("> ") and shared messages passed on
 * as untrusted text, and files fetched only when asked (with the bot token, from Slack only).
 */
export function slackMessageIn(event: SlackMessageEvent, download: (url: string, name: string, maxBytes: number) => Promise<Buffer>): ChannelMessage | null {
  if (event.type !== "message" || !event.user || event.bot_id || !WRITTEN.has(event.subtype)) return null;
  const lines = (event.text ?? "").split("\n");
  const quoted = lines.filter((line) => /^&gt;\s?/.test(line)).map((line) => line.replace(/^&gt;\s?/, ""));
  const written = slackToText(
    lines
      .filter((line) => !/^&gt;\s?/.test(line))
      .join("\n")
      .trim(),
  );
  const passedOn: ChannelMessage["passedOn"] = [];
  if (quoted.length) passedOn.push({ label: CHANNEL_TEXTS.quoted(""), text: slackToText(quoted.join("\n")) });
  for (const attachment of event.attachments ?? []) {
    if (!attachment.is_share && !attachment.is_msg_unfurl) continue;
    const text = slackToText(attachment.text ?? attachment.fallback ?? "");
    if (text) passedOn.push({ label: CHANNEL_TEXTS.forwarded(attachment.author_name ?? attachment.author_subname ?? ""), text });
  }
  const files: ChannelFile[] = (event.files ?? []).flatMap((file) => {
    const url = file.url_private_download ?? file.url_private;
    if (!url) return [];
    const name = file.name || file.title || `file-${file.id}`;
    const mimeType = file.mimetype || "application/octet-stream";
    return [
      {
        name,
        mimeType,
        size: file.size ?? null,
        kind: mimeType.startsWith("image/") ? "photo" : "document",
        download: (maxBytes: number) => download(url, name, maxBytes),
      },
    ];
  });
  const group = event.channel_type !== "im";
  return {
    type: "message",
    raw: event,
    id: `${event.channel}:${event.ts}`,
    chatId: event.channel,
    chatTitle: event.channel,
    group,
    userId: event.user,
    userName: "",
    text: written,
    passedOn,
    files,
    replyTo: { chatId: event.channel, ...(event.thread_ts ? { thread: event.thread_ts } : {}) },
  };
}

export function slackActionIn(payload: SlackBlockActions): ChannelAction | null {
  const action = payload.actions?.[0];
  const channelId = payload.channel?.id ?? payload.container?.channel_id;
  const messageTs = payload.container?.message_ts ?? payload.message?.ts;
  if (payload.type !== "block_actions" || !action || !channelId || !messageTs) return null;
  return {
    type: "action",
    raw: payload,
    id: action.action_ts ?? `${channelId}:${messageTs}:${action.action_id}`,
    data: action.value ?? action.action_id,
    message: { ref: messageTs },
    chatId: channelId,
    chatTitle: payload.channel?.name ?? channelId,
    // Direct messages' channel ids start with D.
    group: !channelId.startsWith("D"),
    userId: payload.user.id,
    userName: payload.user.name ?? payload.user.username ?? "",
  };
}

/** Slack's limits on a section's text (3000) and a button's label (75). */
export const SLACK_SECTION_LIMIT = 3000;

/** A message as Block Kit: its text in a section, and buttons (an approval's Approve / Decline) in an actions block. */
export function slackBlocks(message: OutgoingMessage): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [{ type: "section", text: { type: "mrkdwn", text: message.text } }];
  const elements = [
    ...(message.buttons ?? []).map((button) => ({
      type: "button",
      text: { type: "plain_text", text: button.text.slice(0, 75) },
      action_id: button.data,
      value: button.data,
      ...(button.style ? { style: button.style } : {}),
    })),
    ...(message.link
      ? [{ type: "button", text: { type: "plain_text", text: message.link.text.slice(0, 75) }, action_id: "sage-open", url: message.link.url }]
      : []),
  ];
  if (elements.length > 0) blocks.push({ type: "actions", elements });
  return blocks;
}
