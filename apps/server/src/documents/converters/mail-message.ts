import type { Address, Attachment } from "postal-mime";
import type { ExtractedAttachment } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { supportedExtension } from "../upload-extension.ts";

export interface MailMessage {
  subject: string;
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
  const body = email.html ? await htmlToMarkdown(email.html) : (email.text ?? "").replace(/\r\n?/g, "\n").trim();
  return { subject, text: [headers.join("\n"), body].filter(Boolean).join("\n\n"), attachments: email.attachments.flatMap(convertibleAttachment) };
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
