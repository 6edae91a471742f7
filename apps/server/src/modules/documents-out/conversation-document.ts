import type { Citation, Message, ToolCallRecord } from "@sage/contracts/conversations";
import { createNotes, parseMarkdown, type Block, type DocumentModel } from "./markdown-document.ts";

export interface ExportedConversation {
  name: string;
  messages: readonly Message[];
  /** The user's time zone (IANA): times are written in it, with its abbreviation; UTC when absent. */
  timeZone?: string;
}

const speaker = (message: Message) => (message.role === "user" ? "You" : "SAGE");
/** "27 Nov 2026, 11:51 CET": in the user's zone (issue 52 item 9), named, so a reader elsewhere knows which. */
const when = (iso: string, timeZone = "UTC") => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const written = date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const zone = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" }).formatToParts(date).find((part) => part.type === "timeZoneName")?.value;
  return `${written} ${zone ?? timeZone}`;
};

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const recipients = (value: unknown) => (Array.isArray(value) ? value.filter((entry) => typeof entry === "string").join(", ") : text(value));
/** What a tool behind Approve was asked to do, in a few words: "E-mail to anna@example.com", "Event \"Board dinner\"". */
function askedFor(call: ToolCallRecord): string {
  const args = call.args ?? {};
  switch (call.name) {
    case "sendEmail":
      return `E-mail to ${recipients(args.to) || "(no recipient)"}`;
    case "createEvent":
    case "updateEvent":
      return `Event "${text(args.title) || "(no title)"}"`;
    case "createReminder":
      return `Reminder "${text(args.title)}"`;
    default:
      return (
        call.name
          .replace(/__/g, ": ")
          .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
          .replace(/[_-]+/g, " ")
          .replace(/^./, (first) => first.toUpperCase()) || call.name
      );
  }
}

/**
 * What came of each tool the user was asked to approve (issue 52 item 9): "Sent to anna@example.com.",
 * "E-mail to anna@example.com: not sent: declined". Tools that asked nobody (searches) are left out.
 */
export function toolOutcomes(message: Message): string[] {
  return (message.toolCalls ?? []).flatMap((call) => {
    if (!call.approval) return [];
    const result = (call.result ?? {}) as { success?: unknown; message?: unknown; error?: unknown };
    const notSent = call.name === "sendEmail" ? "not sent" : "not done";
    if (call.approval.answer === "declined") return [`${askedFor(call)}: ${notSent}: declined`];
    if (call.approval.answer === "timed-out") return [`${askedFor(call)}: ${notSent}: no answer in time`];
    if (result.success === false)
      return [`${askedFor(call)}: failed${text(result.error ?? result.message) ? `: ${text(result.error ?? result.message)}` : ""}`];
    return [text(result.message) || `${askedFor(call)}: done`];
  });
}
const citationOf = (message: Message) => (n: number) => message.citations?.find((citation: Citation) => citation.n === n);
export const titleOf = (conversation: ExportedConversation) => conversation.name.trim() || "Untitled";

/** The files SAGE made in this answer (createDocument and reviseDocument calls that succeeded), by name. */
const madeFiles = (message: Message) =>
  (message.toolCalls ?? []).flatMap((call) => {
    const result = call.result as { success?: unknown; name?: unknown } | null;
    return (call.name === "createDocument" || call.name === "reviseDocument") && result?.success === true && typeof result.name === "string"
      ? [result.name]
      : [];
  });
export const createdLine = (name: string) => `Created: ${name}`;

/**
 * The conversation as one document: a heading per message (who and when), the answers' Markdown, what the user
 * typed as plain paragraphs, and every cited passage as a footnote (numbered across the whole conversation).
 */
export function conversationDocument(conversation: ExportedConversation): DocumentModel {
  const notes = createNotes();
  const blocks: Block[] = [];
  for (const message of conversation.messages) {
    if (!message.content.trim()) continue;
    blocks.push({ kind: "heading", depth: 2, inlines: [{ text: `${speaker(message)} · ${when(message.createdAt, conversation.timeZone)}` }] });
    if (message.role === "user") {
      for (const paragraph of message.content.split(/\n\s*\n/)) if (paragraph.trim()) blocks.push({ kind: "paragraph", inlines: [{ text: paragraph.trim() }] });
    } else blocks.push(...parseMarkdown(message.content, citationOf(message), notes));
    for (const line of [...madeFiles(message).map(createdLine), ...toolOutcomes(message)])
      blocks.push({ kind: "paragraph", inlines: [{ text: line, italic: true }] });
  }
  return { title: titleOf(conversation), blocks, notes: notes.notes };
}

/** The conversation as Markdown: citations as footnotes ([^1]) defined at the end. */
export function conversationMarkdown(conversation: ExportedConversation): string {
  const notes = createNotes();
  const parts = [`# ${titleOf(conversation)}`];
  for (const message of conversation.messages) {
    if (!message.content.trim()) continue;
    const cite = citationOf(message);
    const content = message.content.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (whole, numbers: string) => {
      const citations = numbers.split(",").map((part) => cite(Number(part.trim())));
      return citations.every(Boolean) ? citations.map((citation) => `[^${notes.noteFor(citation!)}]`).join("") : whole;
    });
    parts.push(
      `## ${speaker(message)} · ${when(message.createdAt, conversation.timeZone)}`,
      content.trim(),
      ...[...madeFiles(message).map(createdLine), ...toolOutcomes(message)].map((line) => `_${line.replace(/_/g, "\\_")}_`),
    );
  }
  if (notes.notes.length > 0) parts.push(notes.notes.map((note) => `[^${note.n}]: ${note.text}`).join("\n"));
  return `${parts.join("\n\n")}\n`;
}
