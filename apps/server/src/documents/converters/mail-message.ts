import type { Address, Attachment } from "postal-mime";
import type { ExtractedAttachment } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { supportedExtension } from "../upload-extension.ts";

export interface MailMessage {
  subject: string;
  /** The day it was sent, as its Date header says it ("3 Dec 2026"); '' when it has none. */
  day: string;
  /** Headers (from, to, cc, date, subject), a blank line, then the body as markdown. */
  text: string;
  attachments: ExtractedAttachment[];
}

/** One RFC 822 message through postal-mime; an HTML body goes through the same HTML-to-markdown path as web pages. */
export async function readMailMessage(bytes: Uint8Array): Promise<MailMessage> {
  const { default: PostalMime } = await import("postal-mime");
  const email = await PostalMime.parse(bytes, { attachmentEncoding: "arraybuffer" });
  const subject = (email.subject ?? "").trim();
  const headers = [
    ["From", addresses(email.from ? [email.from] : [])],
    ["To", addresses(email.to)],
    ["Cc", addresses(email.cc)],
    // The header as sent ("Mon, 4 Mar 2024 10:00:00 +0100") reads better than its UTC conversion.
    ["Date", email.headers.find((header) => header.key === "date")?.value ?? email.date ?? ""],
    ["Subject", subject],
  ]
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}: ${value}`);
  const plain = (email.text ?? "").replace(/\r\n?/g, "\n").trim();
  const html = email.html ? await htmlToMarkdown(email.html) : "";
  // The two parts of multipart/alternative usually say the same; when the plain one says more, both are kept.
  const body = !html ? plain : saysMore(plain, html) ? `${html}\n\n---\n\n${plain}` : html;
  const sent = email.headers.find((header) => header.key === "date")?.value ?? "";
  return {
    subject,
    day: mailDay(sent, email.date),
    text: [headers.join("\n"), body].filter(Boolean).join("\n\n"),
    attachments: email.attachments.flatMap(convertibleAttachment),
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "3 Dec 2026": the day in the sender's own zone as the header says it, else the parsed date's day in UTC. */
export function mailDay(header: string, parsed: string | undefined): string {
  const written = /\b(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{4})\b/i.exec(header);
  if (written) return `${Number(written[1])} ${MONTHS.find((month) => month.toLowerCase() === written[2]!.toLowerCase())} ${written[3]}`;
  const date = parsed ? new Date(parsed) : null;
  return date && !Number.isNaN(date.getTime()) ? `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}` : "";
}

/** Share of the plain part's words the HTML part lacks, above which the plain part is kept too. */
const MISSING_WORDS_SHARE = 0.2;

/** Whether the plain text has words the HTML version lacks (a different message, not the same one reformatted). */
function saysMore(plain: string, html: string): boolean {
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const plainWords = words(plain);
  if (plainWords.length === 0) return false;
  const htmlWords = new Set(words(html));
  const missing = plainWords.filter((word) => !htmlWords.has(word)).length;
  return missing / plainWords.length > MISSING_WORDS_SHARE;
}

function addresses(list: Address[] | undefined): string {
  return (list ?? [])
    .flatMap((entry) => ("group" in entry && entry.group ? entry.group : [entry]))
    .map((mailbox) => (mailbox.name && mailbox.address ? `${mailbox.name} <${mailbox.address}>` : mailbox.name || mailbox.address || ""))
    .filter(Boolean)
    .join(", ");
}

/** Attached files of types we convert; images the HTML shows inline (logos, signatures) are not attachments. */
function convertibleAttachment(attachment: Attachment): ExtractedAttachment[] {
  if (!attachment.filename || attachment.related || !supportedExtension(attachment.filename)) return [];
  const content = attachment.content;
  const bytes =
    typeof content === "string"
      ? Buffer.from(content, attachment.encoding === "base64" ? "base64" : "utf8")
      : Buffer.from(content instanceof ArrayBuffer ? new Uint8Array(content) : content);
  return [{ filename: attachment.filename, bytes }];
}
