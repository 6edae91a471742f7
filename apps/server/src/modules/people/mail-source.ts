import type { Citation } from "@sage/contracts/conversations";
import type { ContentSource } from "@sage/contracts/provenance";
import type { MailHeader } from "./people.repo.ts";
import { partiesOf } from "./mail-addresses.ts";

/** "3 Dec" (UTC): how a line names the day of the mail it came from. */
export const shortDay = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }) : "undated";

/** "Mon 24 Nov 2026": the day as citations show it (as searchMail's do). */
const longDay = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }) : "undated";

/** A synced message as a cited source: its subject as the title, who sent it when as the place; the quote as the passage. */
export function mailCitation(message: MailHeader, content: string): Omit<Citation, "n"> | null {
  if (message.itemId === null) return null;
  return {
    fileId: message.itemId,
    filename: message.subject || "(no subject)",
    source: `From ${message.fromAddress || "unknown sender"}, ${longDay(message.date)}, ${message.folder}`,
    score: 1,
    content,
    kind: "file",
  };
}

/** Whose words a line from this mail carries: "the mail from Anna Berg of 3 Dec" (untrusted content, issue 47's shape). */
export function mailProvenance(message: MailHeader): ContentSource {
  const sender = partiesOf(message.fromAddress)[0];
  return {
    title: `the mail from ${sender?.name ?? sender?.address ?? "an unknown sender"} of ${shortDay(message.date)}`,
    ...(message.itemId === null ? {} : { fileId: message.itemId }),
    messageId: message.id,
  };
}

/** Words compared without layout, reply quoting marks or typographic quotes (a quote checked against its source). */
export function normalizeText(text: string): string {
  return text
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, "")
    .replace(/[\u2018\u2019\u201B]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}
