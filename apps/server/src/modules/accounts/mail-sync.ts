import { connectionProblemMessage } from "@sage/contracts/accounts";
import { MailConnectionError, type FetchedMessage, type ImapConnection, type ImapServer, type PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import type { AccountRow } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { MAIL_FOLDER, type MailKnowledgePort } from "../knowledge/knowledge.module.ts";
import type { MailServers } from "./account-credentials.ts";
import { readSettings } from "./account-settings.ts";
import type { AccountsRepo, MailMessageRow } from "./accounts.repo.ts";
import { signInFailure } from "./sign-in-failure.ts";

/** Messages fetched per round trip: small enough that progress moves and a restart loses little. */
const FETCH_BATCH = 50;
const DAY_MS = 86_400_000;

export type ConnectImap = (server: ImapServer, rule: PrivateAddressRule) => Promise<ImapConnection>;

export interface MailSyncDeps {
  repo: AccountsRepo;
  box: SecretBox;
  knowledge: MailKnowledgePort;
  connect: ConnectImap;
  /** The account's servers with their password or a working access token (null: no password kept). */
  credentials(row: AccountRow): Promise<MailServers | null>;
  rule: PrivateAddressRule;
  /** Larger messages are listed (searchable by their headers) but their bytes are not fetched. */
  maxMessageBytes: number;
  /** Where a sync that stopped on an unexpected error is logged, with its cause and the account's id. */
  warn?(message: string, error?: unknown): void;
}

/**
 * "Budget for Q1 - Anna Berg, 2026-11-20.eml": subject, sender and day, so any citation of the message (the turn's
 * own knowledge search cites items by name) says who wrote what when; a second one of that name gets " (2)".
 */
function itemName(message: { subject: string; from: string; date: string | null }): string {
  const sender = /^(.*?)\s*<[^>]*>$/.exec(message.from.split(",")[0] ?? "")?.[1]?.replace(/^"|"$/g, "") || message.from.split(",")[0] || "unknown sender";
  const day = message.date ? message.date.slice(0, 10) : "undated";
  return `${message.subject || "(no subject)"} - ${sender}, ${day}.eml`.replace(/[\\/]/g, "-");
}

/** One fetched batch as .eml items (read in the background) and the account's record of its messages. */
async function storeBatch(
  deps: MailSyncDeps,
  where: { accountId: number; userId: number; folderId: number; folder: string },
  batch: FetchedMessage[],
): Promise<void> {
  const itemIds = await deps.knowledge.addMails(
    where.userId,
    where.folderId,
    batch.map((message) => ({
      name: itemName(message),
      bytes: message.source ?? headersOnly(message, deps.maxMessageBytes),
      description: message.source
        ? `From ${message.from || "unknown sender"}${message.date ? `, ${message.date.slice(0, 10)}` : ""}, ${where.folder}`
        : tooLargeToRead(message.size, deps.maxMessageBytes),
    })),
  );
  const itemOf = new Map(batch.map((message, index) => [message.uid, itemIds[index]!]));
  await deps.repo.insertMessages(
    batch.map((message) => ({
      accountId: where.accountId,
      userId: where.userId,
      folder: where.folder,
      uid: message.uid,
      messageId: message.messageId,
      subject: message.subject,
      fromAddress: message.from,
      toAddress: message.to,
      date: message.date,
      itemId: itemOf.get(message.uid) ?? null,
      threadReferences: message.references,
    })),
  );
}

/** "67 MB", or "300 KB" below a megabyte. */
const megabytes = (bytes: number) =>
  bytes < 1_048_576 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${Math.round(bytes / 1_048_576).toLocaleString("en-US")} MB`;
/** What a message too large to fetch says of itself (issue 52 item 6: it was skipped without a word). */
export const tooLargeToRead = (size: number, limit: number) =>
  `Not read: at ${megabytes(size)} this message is larger than the upload limit of ${megabytes(limit)}. Its sender, subject and date are kept; open it in your mail app to read it and its attachments.`;

/** A message too large to fetch, kept as its headers and a sentence saying why: findable, and never silently missing. */
function headersOnly(message: FetchedMessage, limit: number): Buffer {
  const clean = (value: string) => value.replace(/[\r\n]+/g, " ");
  return Buffer.from(
    [
      `From: ${clean(message.from)}`,
      `To: ${clean(message.to)}`,
      `Subject: ${clean(message.subject)}`,
      ...(message.date ? [`Date: ${new Date(message.date).toUTCString().replace("GMT", "+0000")}`] : []),
      ...(message.messageId ? [`Message-ID: ${clean(message.messageId)}`] : []),
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      tooLargeToRead(message.size, limit),
      "",
    ].join("\r\n"),
  );
}

/** What a failed sync tells the user: the step that failed in plain words, never the library's message. */
export function syncFailure(error: unknown, imap: { host: string; port: number; signIn?: boolean }): string {
  if (error instanceof MailConnectionError) return connectionProblemMessage(error.problem, { ...imap, folder: error.folder });
  return "The sync stopped on an unexpected error; it will be tried again at the next sync.";
}

/**
 * One sync of one mail account, incremental and safe to run again (a restart resumes it): per folder, a changed
 * UIDVALIDITY drops what was synced from it; messages gone from the server (deleted, moved, or older than
 * sinceDays) are removed; new UIDs are fetched in small batches, each batch's messages stored as .eml items that
 * the knowledge base reads in a conversion process, and recorded at once, so a stop loses at most one batch.
 */
export async function syncMailAccount(deps: MailSyncDeps, accountId: number): Promise<void> {
  const { repo } = deps;
  const account = await repo.findById(accountId);
  if (!account) return;
  const settings = readSettings(account);
  let connection: ImapConnection | undefined;
  try {
    let servers = await deps.credentials(account);
    if (!servers) {
      await repo.update(accountId, { status: "password-needed", error: null });
      return;
    }
    connection = await deps.connect(servers.imap, deps.rule);
    /**
     * A sync longer than its access token lives: the token is asked for again between batches (a stored one costs a
     * read), and one refreshed near its expiry means a new login with it, so the provider never cuts the session.
     */
    const renewLogin = async (folder: string) => {
      if (!servers!.imap.accessToken) return;
      const fresh = await deps.credentials(account);
      if (!fresh || fresh.imap.accessToken === servers!.imap.accessToken) return;
      await connection!.close();
      connection = undefined;
      servers = fresh;
      connection = await deps.connect(fresh.imap, deps.rule);
      await connection.openFolder(folder);
    };
    let rootId = account.folderItemId;
    if (rootId === null || !(await deps.knowledge.folderExists(account.userId, rootId))) {
      // No folder (first sync, or the user deleted it): what was recorded has no text left, so all is fetched again.
      await repo.forgetMessages(accountId);
      rootId = await deps.knowledge.createRootFolder(account.userId, account.name);
      await repo.update(accountId, { folderItemId: rootId });
      if (!(await repo.findById(accountId))) {
        await deps.knowledge.removeFolder(account.userId, rootId);
        return;
      }
    }
    const stored = await repo.messagesOf(accountId);
    const removeMessage = async (message: MailMessageRow) => {
      if (message.itemId !== null) await deps.knowledge.removeMail(account.userId, message.itemId);
      await repo.removeMessage(message.id);
    };
    // Folders the user no longer syncs take their messages with them.
    for (const message of stored.filter((entry) => !settings.folders.includes(entry.folder))) await removeMessage(message);

    const since = new Date(Date.now() - settings.sinceDays * DAY_MS);
    const plans: Array<{ folder: string; toFetch: number[] }> = [];
    for (const folder of settings.folders) {
      const { uidValidity } = await connection.openFolder(folder);
      let inFolder = stored.filter((entry) => entry.folder === folder);
      if ((await repo.folderValidity(accountId, folder)) !== uidValidity) {
        for (const message of inFolder) await removeMessage(message);
        inFolder = [];
        await repo.setFolderValidity(accountId, folder, uidValidity);
      }
      const onServer = new Set(await connection.uidsSince(since));
      for (const message of inFolder.filter((entry) => !onServer.has(entry.uid))) await removeMessage(message);
      const known = new Set(inFolder.map((entry) => entry.uid));
      plans.push({ folder, toFetch: [...onServer].filter((uid) => !known.has(uid)).sort((a, b) => a - b) });
    }

    const total = plans.reduce((sum, plan) => sum + plan.toFetch.length, 0);
    let processed = 0;
    // A background poll that finds new mail shows its progress like a sync the user started.
    await repo.update(accountId, { syncProcessed: 0, syncTotal: total, ...(total > 0 ? { status: "syncing" as const } : {}) });
    for (const plan of plans) {
      if (plan.toFetch.length === 0) continue;
      await connection.openFolder(plan.folder);
      const folderId = await deps.knowledge.ensureFolders(account.userId, rootId, [MAIL_FOLDER, plan.folder]);
      // The next batch is fetched while this one is stored: the server's answer and the disk overlap.
      const fetchBatch = (start: number) => {
        const fetching = connection!.fetch(plan.toFetch.slice(start, start + FETCH_BATCH), deps.maxMessageBytes);
        fetching.catch(() => {}); // awaited below; a sync that stops first must not leave it unhandled
        return fetching;
      };
      let next = fetchBatch(0);
      for (let start = 0; start < plan.toFetch.length; start += FETCH_BATCH) {
        const batch = await next;
        if (start + FETCH_BATCH < plan.toFetch.length) {
          await renewLogin(plan.folder);
          next = fetchBatch(start + FETCH_BATCH);
        }
        // The account may have been deleted meanwhile: its folder is then gone, and nothing more is added.
        if (!(await repo.findById(accountId))) return;
        await storeBatch(deps, { accountId, userId: account.userId, folderId, folder: plan.folder }, batch);
        processed += batch.length;
        await repo.update(accountId, { syncProcessed: processed });
      }
    }
    await repo.update(accountId, { status: "ok", error: null, lastSyncAt: new Date().toISOString() });
  } catch (error) {
    const signIn = signInFailure(error, settings.auth?.provider);
    if (await repo.findById(accountId)) {
      // A sign-in that ended keeps everything synced so far: the next sync after "Sign in again" goes on from there.
      if (signIn) await repo.update(accountId, signIn);
      else await repo.update(accountId, { status: "error", error: syncFailure(error, { ...settings.imap, signIn: Boolean(settings.auth) }) });
    }
    if (!(error instanceof MailConnectionError) && !signIn) {
      deps.warn?.(`mail account ${accountId}: the sync stopped on an unexpected error`, error);
      throw error;
    }
  } finally {
    await connection?.close();
  }
}
