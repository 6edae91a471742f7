import { CHANNEL_TEXTS, type Channel } from "@sage/contracts/channels";

/** "@SageBot · Telegram", "exec+sage@example.com · E-mail". */
export const channelLabel = (channel: Pick<Channel, "kind" | "name">) => `${channel.name} · ${CHANNEL_TEXTS.kindNames[channel.kind]}`;
