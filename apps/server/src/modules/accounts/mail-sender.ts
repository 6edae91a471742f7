import { connectionProblemMessage } from "@sage/contracts/accounts";
import { MailConnectionError, type ImapConnection, type ImapServer, type PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import { composeMail } from "../../providers/mail/compose-mail.ts";
import type { sendSmtp } from "../../providers/mail/smtp-client.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { imapServer, readSecrets, readSettings } from "./account-settings.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { ConnectImap } from "./mail-sync.ts";
import { webmailDraftsLink } from "./webmail-link.ts";

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

/** Where a draft was saved: the account and folder, and the provider's web mail when it has one. */
export interface SavedDraft {
  account: string;
  folder: string;
  from: string;
  openUrl: string | null;
}

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
      const sent = await connection.specialFolder("\\Sent");
      if (sent) await connection.append(sent, raw);
    } catch (error) {
      deps.warn("a sent mail could not be copied to the Sent folder", error);
    } finally {
      await connection?.close();
    }
  }

  /** The account a draft goes to: the one holding the mail replied to, else the one that sends, else the first. */
  async function draftAccount(userId: number, repliedAccountId: number | undefined) {
    const accounts = (await deps.repo.list(userId)).filter((account) => account.kind === "mail");
    const ordered = [
      ...accounts.filter((account) => account.id === repliedAccountId),
      ...accounts.filter((account) => readSettings(account).smtp),
      ...accounts,
    ];
    for (const row of ordered) {
      const secrets = readSecrets(deps.box, row);
      if (!secrets) continue;
      const settings = readSettings(row);
      const from = [settings.smtp?.user, settings.imap.user].find((user) => user?.includes("@")) ?? settings.imap.user;
      return { name: row.name, imap: imapServer(settings, secrets), from };
    }
    return null;
  }

  return {
    /**
     * Saves a draft in the account's Drafts folder (the one marked \\Drafts, else "Drafts") by IMAP APPEND, flagged
     * \\Draft: nothing leaves, so no approval is asked. A reply keeps In-Reply-To and References.
     */
    async draft(userId: number, mail: MailToSend): Promise<SavedDraft> {
      const replied = mail.inReplyTo === undefined ? undefined : await deps.repo.message(userId, mail.inReplyTo);
      const account = await draftAccount(userId, replied?.accountId);
      if (!account) throw new MailSendError("No mail account can keep a draft: connect one in Settings > Accounts, or enter its password again there.");
      const { raw } = await composeMail({
        from: account.from,
        to: mail.to,
        cc: mail.cc,
        subject: mail.subject,
        text: mail.body,
        inReplyTo: replied?.messageId ?? undefined,
      });
      let connection: ImapConnection | undefined;
      let folder = "Drafts";
      try {
        connection = await deps.connect(account.imap, deps.rule);
        folder = (await connection.specialFolder("\\Drafts")) ?? "Drafts";
        await connection.append(folder, raw, { draft: true });
      } catch (error) {
        if (!(error instanceof MailConnectionError)) throw error;
        const reason =
          error.problem === "network" && connection
            ? `The mail server did not accept it in the folder "${folder}".`
            : connectionProblemMessage(error.problem, { ...account.imap, folder: error.folder ?? folder });
        throw new MailSendError(`The draft was not saved. ${reason}`);
      } finally {
        await connection?.close();
      }
      return { account: account.name, folder, from: account.from, openUrl: webmailDraftsLink(account.imap.host, account.imap.user) };
    },

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
