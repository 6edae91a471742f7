import type { MailToSend } from "../../accounts/accounts.module.ts";
import type { JsonSchema } from "../../../providers/llm/llm.ts";

export const MAIL_ARG_TEXTS = {
  noRecipient: "Give at least one recipient's e-mail address in to.",
  badAddress: (address: string) => `"${address}" is not an e-mail address.`,
} as const;

const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** The arguments sendEmail and draftEmail share. */
export const MAIL_PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    to: { type: "array", items: { type: "string" }, description: "Recipients' e-mail addresses" },
    cc: { type: "array", items: { type: "string" }, description: "Copy recipients' e-mail addresses" },
    subject: { type: "string", description: "Subject line" },
    body: { type: "string", description: "The message, as plain text" },
    inReplyTo: { type: "integer", description: "searchMail's id of the message this replies to, if any" },
  },
  required: ["to", "subject", "body"],
};

/** Addresses from a list or a comma-separated text; "Anna <anna@x.com>" keeps its address. */
function addresses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,;]/) : [];
  return list
    .filter((entry): entry is string => typeof entry === "string")
    .map((entry) => (/<([^>]+)>/.exec(entry)?.[1] ?? entry).trim())
    .filter(Boolean);
}

/** A model's mail arguments read strictly: the mail, or what is wrong with them in words for the model. */
export function readMailArgs(args: Record<string, unknown>): { mail: MailToSend } | { refusal: { success: false; message: string } } {
  const to = addresses(args.to);
  const cc = addresses(args.cc);
  if (to.length === 0) return { refusal: { success: false, message: MAIL_ARG_TEXTS.noRecipient } };
  const bad = [...to, ...cc].find((address) => !ADDRESS.test(address));
  if (bad) return { refusal: { success: false, message: MAIL_ARG_TEXTS.badAddress(bad) } };
  const subject = typeof args.subject === "string" ? args.subject.trim() : "";
  const body = typeof args.body === "string" ? args.body : "";
  const inReplyTo = typeof args.inReplyTo === "number" && Number.isSafeInteger(args.inReplyTo) ? args.inReplyTo : undefined;
  return { mail: { to, cc, subject, body, ...(inReplyTo === undefined ? {} : { inReplyTo }) } };
}
