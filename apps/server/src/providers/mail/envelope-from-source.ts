import { addressParser, decodeWords } from "postal-mime";

/** How much of a message's start is read for its headers. */
const HEADER_BYTES = 64 * 1024;

export interface EnvelopeFields {
  messageId: string | null;
  subject: string;
  from: string;
  to: string;
  date: string | null;
}

const addresses = (value: string) =>
  addressParser(value)
    .flatMap((entry) => ("group" in entry && entry.group ? entry.group : [entry]))
    .map((mailbox) => (mailbox.name && mailbox.address ? `${mailbox.name} <${mailbox.address}>` : mailbox.address || mailbox.name || ""))
    .filter(Boolean)
    .join(", ");

/**
 * The envelope read from the message's own headers, for a message the server could not read them from: one that
 * starts with a UTF-8 byte-order mark hides its first header (usually From) from the server's ENVELOPE, and the
 * mail was listed from "unknown sender" (issue 52 item 5). Null when the message has no such mark.
 */
export function envelopeFromSource(source: Buffer): EnvelopeFields | null {
  if (!(source[0] === 0xef && source[1] === 0xbb && source[2] === 0xbf)) return null;
  const head = source.subarray(3, HEADER_BYTES).toString("utf8");
  const end = head.search(/\r?\n\r?\n/);
  const lines = (end >= 0 ? head.slice(0, end) : head).replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/);
  const header = (name: string) => {
    const line = lines.find((entry) => entry.toLowerCase().startsWith(`${name}:`));
    return line ? decodeWords(line.slice(name.length + 1).trim()) : "";
  };
  const date = header("date") ? new Date(header("date")) : null;
  return {
    messageId: header("message-id") || null,
    subject: header("subject"),
    from: addresses(header("from")),
    to: addresses(header("to")),
    date: date && !Number.isNaN(date.getTime()) ? date.toISOString() : null,
  };
}
