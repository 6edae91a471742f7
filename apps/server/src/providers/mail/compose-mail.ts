export interface OutgoingMail {
  /** The sender: "Anna Berg <anna@example.com>" once written (a name outside ASCII is MIME-encoded). */
  from: { address: string; name?: string };
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  /** The Message-ID replied to: kept as In-Reply-To, and last in References, so the reply joins its thread. */
  inReplyTo?: string;
  /** The replied message's own References chain (RFC 5322 3.6.4): the reply's References are it, then inReplyTo. */
  references?: string[];
}

/** Message-IDs as they appear in a References header: "<a@x> <b@y>", each kept once, in order. */
export function messageIds(header: string | null | undefined): string[] {
  return [...new Set(header?.match(/<[^<>\s]+>/g) ?? [])];
}

/** Builds the RFC 822 bytes of a plain-text mail once (nodemailer's MailComposer), for sending or for a draft. */
export async function composeMail(mail: OutgoingMail): Promise<{ messageId: string; raw: Buffer }> {
  const { default: MailComposer } = await import("nodemailer/lib/mail-composer/index.js");
  const references = mail.inReplyTo ? [...new Set([...(mail.references ?? []), mail.inReplyTo])] : [];
  const composed = new MailComposer({
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length > 0 ? mail.cc : undefined,
    subject: mail.subject,
    text: mail.text,
    date: new Date(),
    ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo, references } : {}),
  }).compile();
  return { messageId: composed.messageId(), raw: await composed.build() };
}
