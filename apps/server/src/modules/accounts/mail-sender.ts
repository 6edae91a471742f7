import { connectionProblemMessage, smtpProblemMessage, stepMessage } from "@sage/contracts/accounts";
import { MailConnectionError, type ImapConnection, type ImapServer, type PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import { composeMail, messageIds } from "../../providers/mail/compose-mail.ts";
import type { sendSmtp } from "../../providers/mail/smtp-client.ts";
import type { AccountRow } from "../../store/schema.ts";
import { SignInNeededError, SignInUnavailableError } from "../sign-in/sign-in.module.ts";
import type { MailCredentials, MailServers } from "./account-credentials.ts";
import { formatSender, readSettings, senderAddress, type MailSettings } from "./account-settings.ts";
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

/** A send that failed, in words for the user (and the model): the step, never the server's reply. */
export class MailSendError extends Error {}

/** Where a draft was saved: the account and folder, and the provider's web mail when it has one. */
export interface SavedDraft {
  account: string;
  folder: string;
  from: string;
  openUrl: string | null;
}

/** Where a saved draft is, for SAGE to replace one it prepared (inbox triage): the account, folder, and UID when the server said it. */
export interface DraftPlace {
  accountId: number;
  folder: string;
  uid: number | null;
}

export const MAIL_SEND_TEXTS = {
  noAccount: "No account can send mail: add an SMTP server to a mail account in Settings > Accounts.",
  noDraftAccount: "No mail account can keep a draft: connect one in Settings > Accounts, or enter its password again there.",
  noAddress: (account: string) => `The e-mail was not sent. ${account} has no sender address: add your e-mail address to it in Settings > Accounts.`,
  noDraftAddress: (account: string) => `The draft was not saved. ${account} has no sender address: add your e-mail address to it in Settings > Accounts.`,
  passwordNeeded: (account: string) => `The e-mail was not sent. The password of ${account} is needed again: enter it in Settings > Accounts.`,
} as const;

const usable = (row: AccountRow, settings: MailSettings) => Boolean(settings.auth) || row.secrets !== null;

/** Sending through the user's first account that has SMTP: only ever called after the user's Approve. */
export function createMailSender(deps: {
  repo: AccountsRepo;
  credentials: MailCredentials;
  rule: PrivateAddressRule;
  send: typeof sendSmtp;
  connect: ConnectImap;
  warn(message: string, error?: unknown): void;
}) {
  const mailAccounts = async (userId: number) => (await deps.repo.list(userId)).filter((account) => account.kind === "mail");
  const sending = async (userId: number) => (await mailAccounts(userId)).find((row) => readSettings(row).smtp && usable(row, readSettings(row)));

  /** The account's servers, or why they cannot be used, in the words of the step ("Sending: ..."). */
  async function serversOf(row: AccountRow, what: "sent" | "saved"): Promise<MailServers> {
    const settings = readSettings(row);
    const failed = `The e-mail was not ${what}.`;
    try {
      const servers = await deps.credentials(row);
      if (servers) return servers;
    } catch (error) {
      if (error instanceof SignInNeededError) throw new MailSendError(`${failed} ${connectionProblemMessage("sign-in", settings.imap)}`);
      if (error instanceof SignInUnavailableError) {
        deps.warn(`the sign-in of account ${row.id} could not be refreshed`, error);
        throw new MailSendError(`${failed} The provider's sign-in could not be reached; try again in a moment.`);
      }
      throw error;
    }
    throw new MailSendError(what === "sent" ? MAIL_SEND_TEXTS.passwordNeeded(row.name) : MAIL_SEND_TEXTS.noDraftAccount);
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
    const accounts = await mailAccounts(userId);
    const ordered = [
      ...accounts.filter((account) => account.id === repliedAccountId),
      ...accounts.filter((account) => readSettings(account).smtp),
      ...accounts,
    ];
    return ordered.find((row) => usable(row, readSettings(row)));
  }

  /** The replied message's Message-ID and its own chain, for In-Reply-To and the whole References chain. */
  async function replyTo(userId: number, id: number | undefined) {
    const replied = id === undefined ? undefined : await deps.repo.message(userId, id);
    if (!replied?.messageId) return { accountId: replied?.accountId };
    return { accountId: replied.accountId, inReplyTo: replied.messageId, references: messageIds(replied.threadReferences) };
  }

  const sender = (settings: MailSettings) => {
    const address = senderAddress(settings);
    return address ? { address, ...(settings.displayName ? { name: settings.displayName } : {}) } : null;
  };

  async function saveDraft(userId: number, mail: MailToSend): Promise<{ saved: SavedDraft; place: DraftPlace }> {
    const reply = await replyTo(userId, mail.inReplyTo);
    const row = await draftAccount(userId, reply.accountId);
    if (!row) throw new MailSendError(MAIL_SEND_TEXTS.noDraftAccount);
    const settings = readSettings(row);
    // A draft without a From would be sent by the mail program from whatever it guesses: none is saved.
    const from = sender(settings);
    if (!from) throw new MailSendError(MAIL_SEND_TEXTS.noDraftAddress(row.name));
    const servers = await serversOf(row, "saved");
    const { raw } = await composeMail({
      from,
      to: mail.to,
      cc: mail.cc,
      subject: mail.subject,
      text: mail.body,
      ...(reply.inReplyTo ? { inReplyTo: reply.inReplyTo, references: reply.references } : {}),
    });
    let connection: ImapConnection | undefined;
    let folder = "Drafts";
    let uid: number | null;
    try {
      connection = await deps.connect(servers.imap, deps.rule);
      folder = (await connection.specialFolder("\\Drafts")) ?? "Drafts";
      ({ uid } = await connection.append(folder, raw, { draft: true }));
    } catch (error) {
      if (!(error instanceof MailConnectionError)) throw error;
      const reason =
        error.problem === "network" && connection
          ? `The mail server did not accept it in the folder "${folder}".`
          : connectionProblemMessage(error.problem, { ...settings.imap, folder: error.folder ?? folder, signIn: Boolean(settings.auth) });
      throw new MailSendError(`The draft was not saved. ${reason}`);
    } finally {
      await connection?.close();
    }
    return {
      saved: {
        account: row.name,
        folder,
        from: formatSender(from.address, settings.displayName),
        openUrl: webmailDraftsLink(settings.imap.host, settings.imap.user),
      },
      place: { accountId: row.id, folder, uid },
    };
  }

  return {
    /**
     * Saves a draft in the account's Drafts folder (the one marked \\Drafts, else "Drafts") by IMAP APPEND, flagged
     * \\Draft: nothing leaves, so no approval is asked. A reply keeps In-Reply-To and the whole References chain.
     */
    async draft(userId: number, mail: MailToSend): Promise<SavedDraft> {
      return (await saveDraft(userId, mail)).saved;
    },

    /** As draft, also answering where it is (inbox triage replaces a draft it prepared). */
    saveDraft: (userId: number, mail: MailToSend) => saveDraft(userId, mail),

    /** Who mail would be sent from ("Anna Berg <anna@example.com>"), or null when no account can send. */
    async sender(userId: number): Promise<string | null> {
      const row = await sending(userId);
      if (!row) return null;
      const settings = readSettings(row);
      return formatSender(senderAddress(settings) ?? settings.smtp!.user, settings.displayName);
    },

    async send(userId: number, mail: MailToSend): Promise<{ from: string; messageId: string }> {
      const row = await sending(userId);
      if (!row) throw new MailSendError(MAIL_SEND_TEXTS.noAccount);
      const settings = readSettings(row);
      const from = sender(settings);
      if (!from) throw new MailSendError(MAIL_SEND_TEXTS.noAddress(row.name));
      const servers = await serversOf(row, "sent");
      if (!servers.smtp) throw new MailSendError(MAIL_SEND_TEXTS.passwordNeeded(row.name));
      const reply = await replyTo(userId, mail.inReplyTo);
      try {
        const sent = await deps.send(servers.smtp, deps.rule, {
          from,
          envelopeFrom: from.address,
          to: mail.to,
          cc: mail.cc,
          subject: mail.subject,
          text: mail.body,
          ...(reply.inReplyTo ? { inReplyTo: reply.inReplyTo, references: reply.references } : {}),
        });
        await keepInSent(servers.imap, sent.raw);
        return { from: formatSender(from.address, settings.displayName), messageId: sent.messageId };
      } catch (error) {
        if (!(error instanceof MailConnectionError)) throw error;
        // The server's own reply is for the operator's log; the user and the model get the step in words.
        deps.warn(`account ${row.id}: sending failed at the ${error.problem} step`, error);
        const words = smtpProblemMessage(error.problem, { ...servers.smtp, address: from.address, signIn: Boolean(settings.auth), rejected: error.rejected });
        throw new MailSendError(`The e-mail was not sent. ${stepMessage("Sending", words)}`);
      }
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
