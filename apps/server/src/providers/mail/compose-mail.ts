export interface OutgoingMail {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  /** The Message-ID replied to: kept as In-Reply-To and References, so the reply joins its thread. */
  inReplyTo?: string;
}

/** Builds the RFC 822 bytes of a plain-text mail once (nodemailer's MailComposer), for sending or for a draft. */
export async function composeMail(mail: OutgoingMail): Promise<{ messageId: string; raw: Buffer }> {
  const { default: MailComposer } = await import("nodemailer/lib/mail-composer/index.js");
  const composed = new MailComposer({
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length > 0 ? mail.cc : undefined,
    subject: mail.subject,
    text: mail.text,
    date: new Date(),
    ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo, references: mail.inReplyTo } : {}),
  }).compile();
  return { messageId: composed.messageId(), raw: await composed.build() };
}
