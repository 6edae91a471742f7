import type { Address, Attachment } from "postal-mime";
import type { AttachmentsNotRead, ExtractedAttachment } from "../extracted-document.ts";
import { supportedExtension } from "../upload-extension.ts";
import { decodeText } from "./decode-text.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";

export interface MailMessage {
  subject: string;
  /** The day it was sent, as its Date header says it ("3 Dec 2026"); '' when it has none. */
  day: string;
  /** Headers (from, to, cc, date, subject), a blank line, then the body as markdown. */
  text: string;
  attachments: ExtractedAttachment[];
  /** Attachments listed but not handed on: past the count limit, or larger than one upload may be. */
  notRead?: AttachmentsNotRead;
}

export interface MailLimits {
  /** Attachments of one message read as items of their own (SAGE_MAIL_MAX_ATTACHMENTS); the rest are listed only. */
  maxAttachments: number;
  /** An attachment larger than this (the upload limit) is listed, not read. */
  maxAttachmentBytes: number;
}

export const DEFAULT_MAIL_LIMITS: MailLimits = { maxAttachments: 100, maxAttachmentBytes: 50 * 1_048_576 };

/** Forwarded messages inside forwarded messages are read this deep; deeper ones stay attachments. */
const MAX_FORWARD_DEPTH = 3;
/** Attachment names the message's text lists at most. */
const LISTED_NAMES = 100;
/** An inline picture smaller than this is a spacer or a tracking pixel, not an attachment. */
const MIN_INLINE_IMAGE_BYTES = 512;
const IMAGE_EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/jpg": "jpg", "image/webp": "webp", "image/tiff": "tif" };

/**
 * One RFC 822 message through postal-mime; an HTML body goes through the same HTML-to-markdown path as web pages
 * (issue 52 item 5): a leading byte-order mark is dropped (it hid the From header); a forwarded message is both
 * read into the text and handed on as an .eml of its own; pictures the HTML shows are attachments like any other;
 * a part with no file name that holds text (a bounce's message/delivery-status, a mislabelled part) is read as text.
 */
export async function readMailMessage(bytes: Uint8Array, limits: MailLimits = DEFAULT_MAIL_LIMITS, depth = 0): Promise<MailMessage> {
  const { default: PostalMime } = await import("postal-mime");
  const source = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  // Every message/rfc822 part as an attachment: its bytes become an item of their own, its text is added below.
  const email = await PostalMime.parse(source, { attachmentEncoding: "arraybuffer", forceRfc822Attachments: true });
  const subject = (email.subject ?? "").trim();
  const sent = email.headers.find((header) => header.key === "date")?.value ?? "";
  const headers = [
    ["From", addresses(email.from ? [email.from] : [])],
    ["To", addresses(email.to)],
    ["Cc", addresses(email.cc)],
    // The header as sent ("Mon, 4 Mar 2024 10:00:00 +0100") reads better than its UTC conversion.
    ["Date", sent || (email.date ?? "")],
    ["Subject", subject],
  ]
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}: ${value}`);
  const plain = (email.text ?? "").replace(/\r\n?/g, "\n").trim();
  const html = email.html ? await htmlToMarkdown(email.html) : "";
  // The two parts of multipart/alternative usually say the same; when the plain one says more, both are kept.
  const body = !html ? plain : saysMore(plain, html) ? `${html}\n\n---\n\n${plain}` : html;

  const parts = await sortParts(email.attachments, limits, depth);
  const listed = parts.files.map((file) => file.filename);
  const attachmentLine =
    listed.length === 0
      ? ""
      : `Attachments: ${listed.slice(0, LISTED_NAMES).join(", ")}${listed.length > LISTED_NAMES ? ` and ${(listed.length - LISTED_NAMES).toLocaleString("en-US")} more` : ""}`;
  const text = [[...headers, attachmentLine].filter(Boolean).join("\n"), body, ...parts.texts].filter(Boolean).join("\n\n");
  const readable = parts.files.filter((file) => file.bytes && supportedExtension(file.filename));
  const tooLarge = readable.filter((file) => file.bytes!.length > limits.maxAttachmentBytes);
  const fitting = readable.filter((file) => file.bytes!.length <= limits.maxAttachmentBytes);
  const attachments = fitting.slice(0, limits.maxAttachments).map((file) => ({ filename: file.filename, bytes: file.bytes! }));
  const message: MailMessage = { subject, day: mailDay(sent, email.date), text, attachments };
  if (tooLarge.length > 0 || fitting.length > limits.maxAttachments) {
    message.notRead = {
      total: readable.length,
      overCount: Math.max(0, fitting.length - limits.maxAttachments),
      maxAttachments: limits.maxAttachments,
      tooLarge: tooLarge.map((file) => ({ filename: file.filename, bytes: file.bytes!.length })),
      maxBytes: limits.maxAttachmentBytes,
    };
  }
  return message;
}

interface SortedParts {
  /** Files, by name: those of types SAGE reads carry their bytes. */
  files: Array<{ filename: string; bytes: Buffer | null }>;
  /** Text to add to the body: forwarded messages, a bounce's report, text parts without a name. */
  texts: string[];
}

async function sortParts(attachments: Attachment[], limits: MailLimits, depth: number): Promise<SortedParts> {
  const sorted: SortedParts = { files: [], texts: [] };
  let pictures = 0;
  for (const attachment of attachments) {
    const bytes = contentOf(attachment);
    const type = attachment.mimeType.toLowerCase();
    if (type === "message/rfc822" && depth < MAX_FORWARD_DEPTH) {
      const forwarded = await readMailMessage(bytes, { ...limits, maxAttachments: 0 }, depth + 1).catch(() => null);
      if (forwarded) {
        sorted.texts.push(`---------- Forwarded message ----------\n${forwarded.text}`);
        sorted.files.push({ filename: emlName(attachment.filename, forwarded.subject), bytes });
        continue;
      }
    }
    if (!attachment.filename && (type === "text/calendar" || type === "application/ics")) {
      sorted.files.push({ filename: "invitation.ics", bytes });
      continue;
    }
    if (!attachment.filename && attachment.related && IMAGE_EXTENSIONS[type]) {
      if (bytes.length < MIN_INLINE_IMAGE_BYTES) continue;
      pictures++;
      sorted.files.push({ filename: `picture ${pictures}.${IMAGE_EXTENSIONS[type]}`, bytes });
      continue;
    }
    if (!attachment.filename && (type.startsWith("message/") || type.startsWith("text/") || looksLikeText(bytes))) {
      const text = decodeText(bytes).replace(/\r\n?/g, "\n").trim();
      if (text) sorted.texts.push(text);
      continue;
    }
    const filename = attachment.filename ?? `attachment ${sorted.files.length + 1}`;
    sorted.files.push({ filename, bytes: supportedExtension(filename) ? bytes : null });
  }
  return sorted;
}

const contentOf = (attachment: Attachment): Buffer => {
  const content = attachment.content;
  return typeof content === "string"
    ? Buffer.from(content, attachment.encoding === "base64" ? "base64" : "utf8")
    : Buffer.from(content instanceof ArrayBuffer ? new Uint8Array(content) : content);
};

/** A forwarded message's file name: its own, else its subject ("Kestrel term sheet.eml"). */
function emlName(filename: string | null, subject: string): string {
  if (filename && /\.eml$/i.test(filename)) return filename;
  const base =
    (filename ?? subject)
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, " ")
      .trim()
      .slice(0, 120) || "Forwarded message";
  return `${base}.eml`;
}

/** Bytes a part mislabels (application/octet-stream, say) that are text all the same: no zero bytes, few controls. */
function looksLikeText(bytes: Buffer): boolean {
  if (bytes.length === 0 || bytes.length > 1_048_576) return false;
  const sample = bytes.subarray(0, 8192);
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 9 || (byte > 13 && byte < 32)) controls++;
  }
  return controls / sample.length < 0.01 && !decodeText(sample).includes("\uFFFD");
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
