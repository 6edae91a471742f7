import { connectionProblemMessage } from "@sage/contracts/accounts";
import { MailConnectionError, type ImapConnection, type ImapServer, type PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import type { sendSmtp } from "../../providers/mail/smtp-client.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { imapServer, readSecrets, readSettings } from "./account-settings.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { ConnectImap } from "./mail-sync.ts";

export interface MailToSend {
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  /** searchMail's id of the message replied to. */
  inReplyTo?: number;
}

/** A send that failed, in words for the user (and the model). */
export class MailSendError extends Error {}

/** Sending through the user's first account that has SMTP: only ever called after the user's Approve. */
export function createMailSender(deps: {
  repo: AccountsRepo;
  box: SecretBox;
  rule: PrivateAddressRule;
  send: typeof sendSmtp;
  connect: ConnectImap;
  warn(message: string, error?: unknown): void;
}) {
  async function outgoing(userId: number) {
    for (const row of (await deps.repo.list(userId)).filter((account) => account.kind === "mail")) {
      const settings = readSettings(row);
      const secrets = readSecrets(deps.box, row);
      if (settings.smtp && secrets?.smtp) {
        const from = settings.smtp.user.includes("@") ? settings.smtp.user : settings.imap.user;
        return { server: { ...settings.smtp, ...secrets.smtp }, imap: imapServer(settings, secrets), from };
      }
    }
    return null;
  }
  /** A copy in the account's Sent folder, as a mail client keeps one; the mail is sent even if this fails. */
  async function keepInSent(server: ImapServer, raw: Buffer) {
    let connection: ImapConnection | undefined;
    try {
      connection = await deps.connect(server, deps.rule);
      const sent = await connection.sentFolder();
      if (sent) await connection.append(sent, raw);
    } catch (error) {
      deps.warn("a sent mail could not be copied to the Sent folder", error);
    } finally {
      await connection?.close();
    }
  }

  return {
    /** The address mail would be sent from, or null when no account can send. */
    sender: async (userId: number) => (await outgoing(userId))?.from ?? null,

    async send(userId: number, mail: MailToSend): Promise<{ from: string; messageId: string }> {
      const account = await outgoing(userId);
      if (!account) throw new MailSendError("No account can send mail: add an SMTP server to a mail account in Settings > Accounts.");
      const replied = mail.inReplyTo === undefined ? undefined : await deps.repo.message(userId, mail.inReplyTo);
      try {
        const sent = await deps.send(account.server, deps.rule, {
          from: account.from,
          to: mail.to,
          cc: mail.cc,
          subject: mail.subject,
          text: mail.body,
          inReplyTo: replied?.messageId ?? undefined,
        });
        await keepInSent(account.imap, sent.raw);
        return { from: account.from, messageId: sent.messageId };
      } catch (error) {
        if (error instanceof MailConnectionError)
          throw new MailSendError(`The e-mail was not sent. ${connectionProblemMessage(error.problem, account.server)}`);
        throw error;
      }
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
