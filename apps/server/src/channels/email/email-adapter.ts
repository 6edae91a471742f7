import { CHANNEL_TEXTS } from "@sage/contracts/channels";
import type { PrivateAddressRule } from "../../providers/mail/allowed-host.ts";
import { connectImap, MailConnectionError, type ImapServer } from "../../providers/mail/imap-client.ts";
import { watchMailbox, type ArrivedMail } from "../../providers/mail/imap-watch.ts";
import { sendSmtp, type SmtpServer } from "../../providers/mail/smtp-client.ts";
import { ChannelError, type ChannelAdapter, type ChannelInbound, type ChannelMessage } from "../channel-adapter.ts";
import { plainText } from "../format/plain-text.ts";
import { renderMessages } from "../format/render-messages.ts";

/** The folder mail to SAGE's address arrives in. */
const FOLDER = "INBOX";
/** One e-mail holds a whole answer: mail has no practical limit a reply comes near. */
const EMAIL_LIMIT = 100_000;
const KIND = CHANNEL_TEXTS.kindNames.email;

/** The mail account the channel reads and answers with: its servers (a fresh sign-in token each time) and its rule. */
export interface ChannelMailbox {
  servers(): Promise<{ imap: ImapServer; smtp: SmtpServer | null }>;
  rule: PrivateAddressRule;
}

/** A message as kept until it is answered: the envelope; the body is fetched again by UID when it is read. */
interface KeptMail {
  uid: number;
  from: { address: string; name: string };
  subject: string;
  messageId: string | null;
  size: number;
}

function mailFailure(error: unknown): ChannelError {
  if (error instanceof ChannelError) return error;
  if (error instanceof MailConnectionError && error.problem === "login")
    return new ChannelError(CHANNEL_TEXTS.tokenRefused(KIND), { permanent: true, status: 401 });
  return new ChannelError(CHANNEL_TEXTS.unreachable(KIND));
}

/** "Re: Subject", once. */
const reply = (subject: string) => (/^re:/i.test(subject) ? subject : `Re: ${subject || "SAGE"}`);

/**
 * An e-mail address as a channel (decision 078): mail to `address` in the account's INBOX is read over IMAP IDLE and
 * answered over the account's SMTP, from that address, in the same thread. The sender of a mail can be forged, so the
 * whole mail (its subject, body and attachments) reaches the turn as an attached .eml file, read by the document
 * reader like any mail and counted as untrusted content; approvals never happen by reply (a card links to SAGE), and
 * strangers are never answered (no backscatter).
 */
export function createEmailAdapter(options: { address: string; mailbox: ChannelMailbox; maxBytes: number }): ChannelAdapter {
  const address = options.address.toLowerCase();

  async function fetchMail(uid: number, maxBytes: number, name: string): Promise<Buffer> {
    const { imap } = await options.mailbox.servers();
    const connection = await connectImap(imap, options.mailbox.rule).catch((error: unknown) => {
      throw mailFailure(error);
    });
    try {
      await connection.openFolder(FOLDER);
      const [message] = await connection.fetch([uid], maxBytes);
      if (!message) throw new ChannelError(CHANNEL_TEXTS.fileUnreadable(name), { permanent: true });
      if (!message.source) throw new ChannelError(CHANNEL_TEXTS.fileTooLarge(name), { permanent: true });
      return message.source;
    } catch (error) {
      throw mailFailure(error);
    } finally {
      await connection.close();
    }
  }

  function parse(raw: unknown): ChannelInbound | null {
    const mail = raw as KeptMail;
    if (!mail?.from?.address || typeof mail.uid !== "number") return null;
    const name = `E-mail from ${mail.from.address}.eml`;
    // The paired "chat" is an address: it names the chat, with the sender's name when the mail gave one.
    const title = mail.from.name ? `${mail.from.name} <${mail.from.address}>` : mail.from.address;
    const message: ChannelMessage = {
      type: "message",
      raw: mail,
      id: `${mail.uid}:${mail.messageId ?? ""}`,
      chatId: mail.from.address,
      chatTitle: title,
      group: false,
      userId: mail.from.address,
      userName: title,
      // Only a pairing code is read from it; for a turn the whole mail is the attached file.
      text: mail.subject,
      vouched: false,
      passedOn: [],
      files: [{ name, mimeType: "message/rfc822", size: mail.size, kind: "document", download: (maxBytes) => fetchMail(mail.uid, maxBytes, name) }],
      replyTo: { chatId: mail.from.address, subject: reply(mail.subject), ...(mail.messageId ? { thread: mail.messageId } : {}) },
    };
    return message;
  }

  return {
    kind: "email",
    limit: EMAIL_LIMIT,
    repliesToStrangers: false,
    render: (markdown, cite) => renderMessages(markdown, plainText, EMAIL_LIMIT, cite),
    parse,

    async identify() {
      const { imap, smtp } = await options.mailbox.servers();
      if (!smtp) throw new ChannelError(CHANNEL_TEXTS.accountCannotSend, { permanent: true, status: 400 });
      const connection = await connectImap(imap, options.mailbox.rule).catch((error: unknown) => {
        throw mailFailure(error);
      });
      let uidNext: number;
      try {
        ({ uidNext } = await connection.openFolder(FOLDER));
      } catch (error) {
        throw mailFailure(error);
      } finally {
        await connection.close();
      }
      // Reading starts here, at connecting: mail that comes before the listener first runs (the pairing code) is read.
      return { name: address, identity: `email:${address}`, cursor: String(Math.max(0, uidNext - 1)) };
    },

    async listen({ cursor, signal, ready, receive }) {
      const { imap } = await options.mailbox.servers();
      const toUs = (mail: ArrivedMail) => mail.recipients.includes(address) && mail.from !== null && mail.from.address !== address;
      try {
        await watchMailbox(imap, options.mailbox.rule, {
          folder: FOLDER,
          afterUid: cursor === null ? null : Number(cursor),
          signal,
          ready,
          async arrived(mail, lastUid) {
            const batch = mail
              .filter(toUs)
              .map((item) => parse({ uid: item.uid, from: item.from!, subject: item.subject, messageId: item.messageId, size: item.size }))
              .filter((item): item is ChannelInbound => item !== null);
            await receive(batch, String(lastUid));
          },
        });
      } catch (error) {
        if (signal.aborted) return;
        throw mailFailure(error);
      }
    },

    async send(chat, message) {
      const { smtp } = await options.mailbox.servers();
      if (!smtp) throw new ChannelError(CHANNEL_TEXTS.accountCannotSend, { permanent: true, status: 400 });
      const text = message.link ? `${message.text}\n\n${message.link.text} ${message.link.url}` : message.text;
      try {
        const sent = await sendSmtp(smtp, options.mailbox.rule, {
          from: { address, name: "SAGE" },
          envelopeFrom: address,
          to: [chat.chatId],
          cc: [],
          subject: chat.subject ?? "SAGE",
          text,
          ...(chat.thread ? { inReplyTo: chat.thread } : {}),
        });
        return { ref: sent.messageId };
      } catch (error) {
        throw mailFailure(error);
      }
    },

    // A sent mail cannot change: a card's answer shows in SAGE.
    async edit() {},
  };
}
