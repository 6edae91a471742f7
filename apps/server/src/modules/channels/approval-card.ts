import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import { APPROVAL_CARD_TEXTS, type ApprovalRequest } from "@sage/contracts/external-tools";

/** Every ASCII punctuation character backslash-escaped: text from a mail or a tool shows as itself, never as Markdown. */
export const markdownLiteral = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (char) => `\\${char}`);

const ACTIONS: Record<string, string> = {
  sendEmail: "Send this e-mail",
  createEvent: "Add this event to your calendar",
  updateEvent: "Change this event in your calendar",
  saveMemory: "Remember this",
};

/** The fields a card names, in the order an executive reads them; any other argument follows under its own name. */
const LABELS: [string, string][] = [
  ["calendar", "Calendar"],
  ["to", "To"],
  ["cc", "Cc"],
  ["subject", "Subject"],
  ["title", "Title"],
  ["start", "Starts"],
  ["end", "Ends"],
  ["timeZone", "Time zone"],
  ["attendees", "Invitees"],
  ["location", "Place"],
];
/** Long text shown whole, as a block of its own. */
const BLOCKS = new Set(["body", "content", "text", "description", "message", "note"]);

const valueText = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(valueText).join(", ")
    : typeof value === "string"
      ? value
      : value === undefined || value === null
        ? ""
        : JSON.stringify(value);

/**
 * An approval card as Markdown for a chat: what SAGE would do, why it asks, and the whole content (every recipient, the
 * subject, the body, the event), each value shown literally. The same card the web app shows, in words.
 */
export function approvalCardMarkdown(request: ApprovalRequest): string {
  const title = contentDerived(request) ? APPROVAL_CARD_TEXTS.contentDerivedTitle : CHANNEL_TEXTS.cardTitle;
  const lines: string[] = [`**${markdownLiteral(title)}**`, ""];
  lines.push(`**${markdownLiteral(ACTIONS[request.name] ?? `Run ${request.name}`)}**`);
  // The call in the tool's own plain words (a schedule and its next runs), line by line.
  for (const line of request.summary ?? []) lines.push("", markdownLiteral(line));
  if (request.reason) lines.push("", `_${markdownLiteral(request.reason)}_`);
  const args = request.args;
  const shown = new Set<string>();
  const fields: string[] = [];
  for (const [key, label] of LABELS) {
    if (!(key in args)) continue;
    shown.add(key);
    const text = valueText(args[key]);
    if (text) fields.push(`**${label}:** ${markdownLiteral(text)}`);
  }
  const blocks: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (shown.has(key) || key === "inReplyTo" || key === "id") continue;
    const text = valueText(value);
    if (!text) continue;
    if (BLOCKS.has(key) || text.length > 120 || text.includes("\n")) blocks.push(...text.split(/\n/).map((line) => `> ${markdownLiteral(line) || " "}`), "");
    else fields.push(`**${markdownLiteral(key)}:** ${markdownLiteral(text)}`);
  }
  if (fields.length) lines.push("", ...fields.flatMap((field) => [field, ""]).slice(0, -1));
  if (blocks.length) lines.push("", ...blocks.slice(0, -1));
  return lines.join("\n");
}

/**
 * What a button under a card carries back: the approval and the answer ("y" Approve, "n" Decline; on the second
 * confirmation of a content-derived card, "c" Yes, approve it, "b" Go back).
 */
export type CardAnswer = "y" | "n" | "c" | "b";
export const cardButtonData = (approvalId: string, answer: CardAnswer) => `ap:${answer}:${approvalId}`;

export function parseCardButton(data: string): { approvalId: string; answer: CardAnswer } | null {
  const match = /^ap:([yncb]):([\w-]{1,60})$/.exec(data);
  return match ? { answer: match[1] as CardAnswer, approvalId: match[2]! } : null;
}

/**
 * Whether a card needs a second, explicit confirmation before Approve counts: a value in it came from content SAGE read
 * rather than from the user (issue 47's `risk: "content-derived"`). A card that follows untrusted text (decision 031's
 * reason, "This request follows text from ...") asks twice in a channel too, where a forwarded message is one tap away
 * from a button: a channel's Approve is never weaker than the web app's, and here it is stricter.
 */
export function contentDerived(request: Partial<Pick<ApprovalRequest, "reason" | "risk">>): boolean {
  return request.risk === "content-derived" || /^This request follows /.test(request.reason ?? "");
}
