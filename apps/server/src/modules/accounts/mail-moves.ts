import { connectionProblemMessage } from "@sage/contracts/accounts";
import { MailConnectionError, type ImapConnection, type PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import { SignInNeededError, SignInUnavailableError } from "../sign-in/sign-in.module.ts";
import type { MailKnowledgePort } from "../knowledge/knowledge.module.ts";
import type { MailCredentials, MailServers } from "./account-credentials.ts";
import { readSettings } from "./account-settings.ts";
import type { AccountsRepo, MailMessageRow } from "./accounts.repo.ts";
import type { ConnectImap } from "./mail-sync.ts";

/** A move that failed, in words for the user and the model: what did not happen and why, never the server's reply. */
export class MailMoveError extends Error {}

/** A synced mail as the deleteMail and archiveMail cards name it. */
export interface MailToMove {
  id: number;
  subject: string;
  from: string;
  date: string | null;
  folder: string;
  account: string;
}

/** Where a mail went: the folder, or null when it was deleted for good (an account with no Trash folder at all). */
export interface MailMoved {
  account: string;
  folder: string | null;
  /** It was there already: nothing changed on the server. */
  already?: boolean;
}

export type MailMove = "trash" | "archive";

export const MAIL_MOVE_TEXTS = {
  notMoved: (move: MailMove) => (move === "trash" ? "The mail was not deleted." : "The mail was not archived."),
  gone: (folder: string) => `It is no longer in ${folder} on the mail server: it was moved or deleted there.`,
  outOfDate: (account: string) => `SAGE's copy of ${account} is out of date; ask again after its next sync.`,
  passwordNeeded: (account: string) => `The password of ${account} is needed again: enter it in Settings > Accounts.`,
  signInUnreachable: "The provider's sign-in could not be reached; try again in a moment.",
  refused: (folder: string) => `The mail server did not accept moving it to "${folder}".`,
} as const;

/**
 * deleteMail and archiveMail on the mail server (decision 066), only ever called after the user's Approve: the mail
 * moves to the folder marked \Trash (else one named Trash; deleted for good only when the account has no Trash at
 * all), or to the one marked \Archive (Gmail: \All, so it leaves the Inbox; else "Archive", created when missing).
 * SAGE's own record of it goes at once, so it leaves searchMail now; a synced destination brings it back there.
 */
export function createMailMoves(deps: {
  repo: AccountsRepo;
  credentials: MailCredentials;
  knowledge: Pick<MailKnowledgePort, "removeMail">;
  rule: PrivateAddressRule;
  connect: ConnectImap;
  warn(message: string, error?: unknown): void;
}) {
  const { repo } = deps;

  /** The account's servers, or why they cannot be used in words. */
  async function serversOf(row: NonNullable<Awaited<ReturnType<AccountsRepo["find"]>>>, failed: string): Promise<MailServers> {
    const settings = readSettings(row);
    try {
      const servers = await deps.credentials(row);
      if (servers) return servers;
    } catch (error) {
      if (error instanceof SignInNeededError) throw new MailMoveError(`${failed} ${connectionProblemMessage("sign-in", settings.imap)}`);
      if (error instanceof SignInUnavailableError) {
        deps.warn(`the sign-in of account ${row.id} could not be refreshed`, error);
        throw new MailMoveError(`${failed} ${MAIL_MOVE_TEXTS.signInUnreachable}`);
      }
      throw error;
    }
    throw new MailMoveError(`${failed} ${MAIL_MOVE_TEXTS.passwordNeeded(row.name)}`);
  }

  /** SAGE forgets the message (its record and its text in the knowledge base): it leaves searchMail at once. */
  async function forget(userId: number, message: MailMessageRow) {
    if (message.itemId !== null) await deps.knowledge.removeMail(userId, message.itemId);
    await repo.removeMessage(message.id);
  }

  /** Where the mail goes; null: nowhere (an account with no Trash folder: deleted for good). */
  async function destination(connection: ImapConnection, move: MailMove): Promise<string | null> {
    if (move === "trash") return connection.specialFolder("\\Trash");
    return (
      (await connection.specialFolder("\\Archive", { named: false })) ??
      (await connection.specialFolder("\\All", { named: false })) ??
      (await connection.specialFolder("\\Archive")) ??
      (await connection.createFolder("Archive"))
    );
  }

  async function moveMail(userId: number, id: number, move: MailMove): Promise<MailMoved> {
    const failed = MAIL_MOVE_TEXTS.notMoved(move);
    const message = await repo.message(userId, id);
    const row = message ? await repo.find(userId, message.accountId) : undefined;
    if (!message || !row || row.kind !== "mail") throw new MailMoveError(`${failed} ${MAIL_MOVE_TEXTS.gone("the synced mail")}`);
    const settings = readSettings(row);
    const servers = await serversOf(row, failed);
    let connection: ImapConnection | undefined;
    let target: string | null | undefined;
    try {
      connection = await deps.connect(servers.imap, deps.rule);
      const { uidValidity } = await connection.openFolder(message.folder);
      // A UID means this message only under the UIDVALIDITY it was synced with: never move another one.
      if (uidValidity !== (await repo.folderValidity(row.id, message.folder))) throw new MailMoveError(`${failed} ${MAIL_MOVE_TEXTS.outOfDate(row.name)}`);
      const [found] = await connection.fetch([message.uid], 0);
      if (!found || (message.messageId !== null && found.messageId !== message.messageId)) {
        await forget(userId, message);
        throw new MailMoveError(`${failed} ${MAIL_MOVE_TEXTS.gone(message.folder)}`);
      }
      target = await destination(connection, move);
      if (target === message.folder) return { account: row.name, folder: target, already: true };
      if (target === null) await connection.removeMessage(message.folder, message.uid);
      else await connection.moveMessage(message.folder, message.uid, target);
    } catch (error) {
      if (!(error instanceof MailConnectionError)) throw error;
      deps.warn(`account ${row.id}: moving a mail failed at the ${error.problem} step`, error);
      // Connected, then a command refused (a full Trash, a read-only folder): the step, not the server's words.
      const reason =
        error.problem === "network" && connection && target
          ? MAIL_MOVE_TEXTS.refused(target)
          : connectionProblemMessage(error.problem, { ...settings.imap, folder: error.folder ?? message.folder, signIn: Boolean(settings.auth) });
      throw new MailMoveError(`${failed} ${reason}`);
    } finally {
      await connection?.close();
    }
    await forget(userId, message);
    return { account: row.name, folder: target };
  }

  return {
    /** The user's synced mail by searchMail's id, as a card names it; null for an unknown id or another user's. */
    async mailToMove(userId: number, id: number): Promise<MailToMove | null> {
      const message = await repo.message(userId, id);
      const row = message ? await repo.find(userId, message.accountId) : undefined;
      if (!message || !row || row.kind !== "mail") return null;
      return { id: message.id, subject: message.subject, from: message.fromAddress, date: message.date, folder: message.folder, account: row.name };
    },
    /** Moves the mail to Trash (deleteMail, after Approve). */
    trash: (userId: number, id: number) => moveMail(userId, id, "trash"),
    /** Moves the mail to the archive (archiveMail, after Approve). */
    archive: (userId: number, id: number) => moveMail(userId, id, "archive"),
  };
}

export type MailMoves = ReturnType<typeof createMailMoves>;
