import {
  ACCOUNT_ERRORS,
  connectionProblemMessage,
  type Account,
  type CreateAccountInput,
  type TestConnectionResponse,
  type UpdateAccountInput,
} from "@sage/contracts/accounts";
import { notFound } from "../../http/app-error.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { MailConnectionError, type ImapConnection } from "../../providers/mail/imap-client.ts";
import type { AccountRow } from "../../store/schema.ts";
import { readSecrets, readSettings, secretPart, serverPart, type MailSecrets, type MailSettings } from "./account-settings.ts";
import { syncMailAccount, type MailSyncDeps } from "./mail-sync.ts";

export const MAIL_SYNC_JOB = "accounts.mail-sync";
/** A sync interrupted by restarts is resumed this often: each run goes on from the last message it recorded. */
const MAX_SYNC_RESUMES = 10;

export function createAccountsService(deps: MailSyncDeps & { jobs: JobQueue; warn(message: string, error?: unknown): void }) {
  const { repo, box, jobs } = deps;
  /** Accounts with a sync queued and not yet started: another request adds nothing. */
  const queued = new Set<number>();
  /** One sync per account at a time (a resumed job and a new request may meet). */
  const running = new Map<number, Promise<void>>();

  jobs.register<{ accountId: number }>(
    MAIL_SYNC_JOB,
    async ({ payload }) => {
      queued.delete(payload.accountId);
      const previous = running.get(payload.accountId) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(() => syncMailAccount(deps, payload.accountId));
      running.set(payload.accountId, run);
      try {
        await run;
      } finally {
        if (running.get(payload.accountId) === run) running.delete(payload.accountId);
      }
    },
    {
      onInterrupted: "resume",
      maxResumes: MAX_SYNC_RESUMES,
      async onFailed(job) {
        const { accountId } = JSON.parse(job.payload) as { accountId: number };
        const account = await repo.findById(accountId);
        if (account?.status === "syncing") {
          await repo.update(accountId, { status: "error", error: "The sync stopped on an unexpected error; it will be tried again at the next sync." });
        }
      },
    },
  );

  async function toApi(row: AccountRow): Promise<Account> {
    const settings = readSettings(row);
    const status = row.status !== "syncing" && readSecrets(box, row) === null ? "password-needed" : row.status;
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      status,
      lastSyncAt: row.lastSyncAt,
      error: row.error,
      counts: { messages: await repo.messageCount(row.id) },
      progress: row.status === "syncing" ? { processed: row.syncProcessed, total: row.syncTotal } : null,
      imap: settings.imap,
      smtp: settings.smtp,
      folders: settings.folders,
      sinceDays: settings.sinceDays,
      createdAt: row.createdAt,
    };
  }

  async function requireAccount(userId: number, id: number): Promise<AccountRow> {
    const row = await repo.find(userId, id);
    if (!row) throw notFound(ACCOUNT_ERRORS.accountNotFound, "account_not_found");
    return row;
  }

  async function startSync(row: AccountRow): Promise<void> {
    await repo.update(row.id, { status: "syncing", error: null, syncProcessed: 0, syncTotal: 0 });
    if (queued.has(row.id)) return;
    queued.add(row.id);
    await jobs.enqueue({ kind: MAIL_SYNC_JOB, userId: row.userId, payload: { accountId: row.id } });
  }

  return {
    async list(userId: number): Promise<Account[]> {
      return Promise.all((await repo.list(userId)).map(toApi));
    },

    /** Saves the account and starts its first sync; a failure to connect shows as the account's error. */
    async create(userId: number, input: CreateAccountInput): Promise<Account> {
      const settings: MailSettings = {
        imap: serverPart(input.imap),
        smtp: input.smtp ? serverPart(input.smtp) : null,
        folders: input.folders,
        sinceDays: input.sinceDays,
      };
      const secrets: MailSecrets = { imap: secretPart(input.imap), smtp: input.smtp ? secretPart(input.smtp) : null };
      const id = await repo.insert({
        userId,
        kind: "mail",
        name: input.name,
        settings: JSON.stringify(settings),
        secrets: box.seal(JSON.stringify(secrets)),
        status: "syncing",
      });
      const row = await requireAccount(userId, id);
      await startSync(row);
      return toApi(await requireAccount(userId, id));
    },

    /** Changes what was sent; a server sent without a password keeps the stored one. What to sync changed: a sync starts. */
    async update(userId: number, id: number, patch: UpdateAccountInput): Promise<Account> {
      const row = await requireAccount(userId, id);
      const settings = readSettings(row);
      const secrets: MailSecrets = readSecrets(box, row) ?? { imap: {}, smtp: null };
      if (patch.imap) {
        settings.imap = serverPart(patch.imap);
        const given = secretPart(patch.imap);
        if (Object.keys(given).length > 0) secrets.imap = given;
      }
      if (patch.smtp) {
        settings.smtp = serverPart(patch.smtp);
        const given = secretPart(patch.smtp);
        if (Object.keys(given).length > 0 || !secrets.smtp) secrets.smtp = given;
      }
      if (patch.folders) settings.folders = patch.folders;
      if (patch.sinceDays !== undefined) settings.sinceDays = patch.sinceDays;
      const hasSecret = Boolean(secrets.imap.password ?? secrets.imap.accessToken);
      await repo.update(id, {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        settings: JSON.stringify(settings),
        secrets: hasSecret ? box.seal(JSON.stringify(secrets)) : row.secrets,
      });
      const updated = await requireAccount(userId, id);
      if ((patch.imap || patch.folders || patch.sinceDays !== undefined) && readSecrets(box, updated)) await startSync(updated);
      return toApi(await requireAccount(userId, id));
    },

    /** Deletes the account and everything it synced (its knowledge folder, with the messages' text and files). */
    async remove(userId: number, id: number): Promise<void> {
      await requireAccount(userId, id);
      const removed = await repo.remove(userId, id);
      queued.delete(id);
      // A sync running meanwhile stops at its next batch, seeing the account gone; its folder is then removed whole.
      await running.get(id)?.catch(() => undefined);
      if (removed?.folderItemId != null) await deps.knowledge.removeFolder(userId, removed.folderItemId);
    },

    /** Starts a sync now (or says a password is needed); answers the account as it then stands. */
    async sync(userId: number, id: number): Promise<Account> {
      const row = await requireAccount(userId, id);
      if (readSecrets(box, row)) await startSync(row);
      else await repo.update(id, { status: "password-needed" });
      return toApi(await requireAccount(userId, id));
    },

    /** Logs in and opens each folder, saying which step failed; nothing is saved. */
    async testConnection(input: CreateAccountInput): Promise<TestConnectionResponse> {
      let connection: ImapConnection | undefined;
      try {
        connection = await deps.connect({ ...serverPart(input.imap), ...secretPart(input.imap) }, deps.rule);
        const folders = await connection.listFolders();
        for (const folder of input.folders) await connection.openFolder(folder);
        return { ok: true, folders };
      } catch (error) {
        if (!(error instanceof MailConnectionError)) throw error;
        return { ok: false, problem: error.problem, message: connectionProblemMessage(error.problem, { ...input.imap, folder: error.folder }) };
      } finally {
        await connection?.close();
      }
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
