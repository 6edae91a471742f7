import type { ChannelFormat } from "./render-messages.ts";

/** Slack's mrkdwn (api.slack.com/reference/surfaces/formatting#escaping): &, < and > are the only escapes. */
export const escapeSlack = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * Wraps text in a mark (*bold*, _italic_, ~strike~) with the spaces at its edges left outside, since Slack only reads
 * a mark that touches its text.
 */
function mark(text: string, symbol: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return match[2] ? `${match[1]}${symbol}${match[2]}${symbol}${match[3]}` : text;
}

/** Slack mrkdwn for `text` fields and Block Kit `mrkdwn` text objects. */
export const slackMrkdwn: ChannelFormat = {
  span(span) {
    let text = escapeSlack(span.text);
    if (span.code) text = text.trim() ? `\`${text.replace(/`/g, "ˋ")}\`` : text;
    if (span.bold) text = mark(text, "*");
    if (span.italic) text = mark(text, "_");
    if (span.strike) text = mark(text, "~");
    // A link's label cannot hold "|" or ">": they end it.
    if (span.link && SAFE_LINK.test(span.link)) text = `<${escapeSlack(span.link).replace(/\|/g, "%7C")}|${text.replace(/\|/g, "¦")}>`;
    return text;
  },
  code: (text) => `\`\`\`\n${escapeSlack(text).replace(/```/g, "ˋˋˋ")}\n\`\`\``,
  quote: (rendered) =>
    rendered
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n"),
  rule: "———",
  blockSeparator: "\n\n",
};
