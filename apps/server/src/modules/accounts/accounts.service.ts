import {
  ACCOUNT_ERRORS,
  calendarProblemMessage,
  connectionProblemMessage,
  smtpProblemMessage,
  stepMessage,
  type Account,
  type AccountStatus,
  type CreateAccountInput,
  type CreateAnyAccountInput,
  type CreateCalendarAccountInput,
  type SignInAccountInput,
  type CreateContactsAccountInput,
  contactsProblemMessage,
  type TestConnectionResponse,
  type UpdateContactsAccountInput,
  type UpdateAccountInput,
  type UpdateCalendarAccountInput,
} from "@sage/contracts/accounts";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { MailConnectionError, type ImapConnection } from "../../providers/mail/imap-client.ts";
import type { probeSmtp } from "../../providers/mail/smtp-probe.ts";
import type { AccountRow } from "../../store/schema.ts";
import type { SignInPort } from "../sign-in/sign-in.module.ts";
import { isAddress, readSecrets, readSettings, secretPart, senderAddress, serverPart, type MailSecrets, type MailSettings } from "./account-settings.ts";
import { syncMailAccount, type MailSyncDeps } from "./mail-sync.ts";
import { calendarHost, calendarParts, readCalendarSecrets, readCalendarSettings } from "./calendar-settings.ts";
import { syncCalendarAccount, UNEXPECTED_SYNC_FAILURE, type CalendarSyncDeps } from "./calendar-sync.ts";
import { createSignInAccounts } from "./sign-in-accounts.ts";
import { contactsHost, contactsParts, readContactsPassword, readContactsSettings, syncContactsAccount, type ContactsSyncDeps } from "./contacts-sync.ts";

export const MAIL_SYNC_JOB = "accounts.mail-sync";
export const CALENDAR_SYNC_JOB = "accounts.calendar-sync";
export const CONTACTS_SYNC_JOB = "accounts.contacts-sync";
const JOB_OF_KIND = { mail: MAIL_SYNC_JOB, calendar: CALENDAR_SYNC_JOB, contacts: CONTACTS_SYNC_JOB } as const;
export type AccountKind = keyof typeof JOB_OF_KIND;
/** Calendars are synced this often (issue 30), besides on demand. */
export const CALENDAR_SYNC_EVERY_MS = 15 * 60_000;
/**
 * Mail is polled (issue 30: at most every 2 minutes): the round runs every MAIL_ROUND_MS and syncs accounts not
 * touched for MAIL_POLL_MS, so a new message is in SAGE within two minutes of reaching the server.
 */
export const MAIL_POLL_MS = 100_000;
export const MAIL_ROUND_MS = 20_000;
/** A failing account is tried again only this often: a wrong password retried every 2 minutes can get it locked. */
const MAIL_RETRY_FAILED_MS = 15 * 60_000;
/** A sync interrupted by restarts is resumed this often: each run goes on from the last message it recorded. */
const MAX_SYNC_RESUMES = 10;

export function createAccountsService(
  deps: MailSyncDeps &
    Omit<CalendarSyncDeps, "repo" | "rule"> &
    Pick<ContactsSyncDeps, "cards" | "connectCarddav"> & {
      jobs: JobQueue;
      signIn: SignInPort;
      probeSmtp: typeof probeSmtp;
      warn(message: string, error?: unknown): void;
      /** A sync finished (mail, calendar or contacts): the people pages and the inbox triage read what it brought. */
      onSynced?(userId: number, kind: AccountKind, accountId: number): void;
    },
) {
  const { repo, box, jobs } = deps;
  /** Accounts with a sync queued and not yet started: another request adds nothing. */
  const queued = new Set<number>();
  /** One sync per account at a time (a resumed job and a new request may meet). */
  const running = new Map<number, Promise<void>>();

  const syncOnce = (kind: string, accountId: number) =>
    kind === CALENDAR_SYNC_JOB
      ? syncCalendarAccount(deps, accountId)
      : kind === CONTACTS_SYNC_JOB
        ? syncContactsAccount(deps, accountId)
        : syncMailAccount(deps, accountId);
  for (const kind of [MAIL_SYNC_JOB, CALENDAR_SYNC_JOB, CONTACTS_SYNC_JOB]) {
    jobs.register<{ accountId: number }>(
      kind,
      async ({ job, payload }) => {
        queued.delete(payload.accountId);
        const previous = running.get(payload.accountId) ?? Promise.resolve();
        const run = previous.catch(() => undefined).then(() => syncOnce(kind, payload.accountId));
        running.set(payload.accountId, run);
        try {
          await run;
        } finally {
          if (running.get(payload.accountId) === run) running.delete(payload.accountId);
        }
        const synced = Object.entries(JOB_OF_KIND).find(([, jobKind]) => jobKind === kind)![0] as AccountKind;
        deps.onSynced?.(job.userId, synced, payload.accountId);
      },
      {
        onInterrupted: "resume",
        maxResumes: MAX_SYNC_RESUMES,
        // A sync waits on the mail server; the messages it adds are read in the job slots meanwhile.
        waitsOnNetwork: true,
        async onFailed(job, reason) {
          const { accountId } = JSON.parse(job.payload) as { accountId: number };
          const account = await repo.findById(accountId);
          if (account?.status === "syncing") {
            // Stopped outside the sync itself (restarted too often, say): the sync logged nothing, so this does.
            const synced = Object.entries(JOB_OF_KIND).find(([, jobKind]) => jobKind === kind)![0];
            deps.warn(`${synced} account ${accountId}: the sync job failed: ${reason}`);
            await repo.update(accountId, { status: "error", error: UNEXPECTED_SYNC_FAILURE });
          }
        },
      },
    );
  }

  /** How an account signs in when it has no password: its provider and who signed in, or null for a password account. */
  async function authOf(row: AccountRow) {
    const provider = (row.kind === "mail" ? readSettings(row).auth : readCalendarSettings(row).auth)?.provider;
    if (!provider) return null;
    const grant = row.grantId === null ? null : await deps.signIn.grant(row.grantId);
    return { provider, user: grant?.login ?? null, signedIn: grant?.status === "ok", signInUrl: deps.signIn.startUrl(provider, "account", row.id) };
  }

  /** A password that cannot be opened shows "password-needed"; a sign-in that ended (or never happened) "sign-in-needed". */
  function statusOf(row: AccountRow, auth: Awaited<ReturnType<typeof authOf>>): AccountStatus {
    if (row.status === "syncing") return "syncing";
    if (auth) return auth.signedIn ? row.status : "sign-in-needed";
    return box.open(row.secrets ?? "") === null ? "password-needed" : row.status;
  }

  async function toApi(row: AccountRow): Promise<Account> {
    const auth = await authOf(row);
    const status = statusOf(row, auth);
    const signIn = { auth: auth ? { provider: auth.provider, user: auth.user } : null, signInUrl: auth?.signInUrl ?? null };
    if (row.kind === "contacts")
      return {
        id: row.id,
        kind: "contacts",
        name: row.name,
        status,
        lastSyncAt: row.lastSyncAt,
        error: row.error,
        counts: { contacts: await deps.cards.count(row.id) },
        progress: null,
        carddav: readContactsSettings(row).carddav,
        createdAt: row.createdAt,
        auth: null,
        signInUrl: null,
      };
    if (row.kind === "calendar") {
      const settings = readCalendarSettings(row);
      return {
        ...signIn,
        id: row.id,
        kind: "calendar",
        name: row.name,
        status,
        lastSyncAt: row.lastSyncAt,
        error: row.error,
        counts: { events: await deps.calendar.eventCount(row.id) },
        progress: null,
        caldav: settings.caldav,
        ics: settings.ics,
        createdAt: row.createdAt,
      };
    }
    const settings = readSettings(row);
    return {
      ...signIn,
      address: senderAddress(settings),
      displayName: settings.displayName ?? null,
      id: row.id,
      kind: "mail",
      name: row.name,
      status,
      lastSyncAt: row.lastSyncAt,
      error: row.error,
      // Up to date means searchable (issue 52 item 7): messages synced but still being read are counted apart.
      counts: { messages: await repo.messageCount(row.id), reading: await repo.readingCount(row.id) },
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

  /** A background poll (`quiet`) keeps the status: the sync itself shows "syncing" only when it finds new mail. */
  async function startSync(row: AccountRow, options: { quiet?: boolean } = {}): Promise<void> {
    if (!options.quiet) await repo.update(row.id, { status: "syncing", error: null, syncProcessed: 0, syncTotal: 0 });
    if (queued.has(row.id) || (options.quiet && running.has(row.id))) return;
    queued.add(row.id);
    await jobs.enqueue({ kind: JOB_OF_KIND[row.kind], userId: row.userId, payload: { accountId: row.id } });
  }

  const signInAccounts = createSignInAccounts({
    repo,
    signIn: deps.signIn,
    startSync: (row) => startSync(row),
    requireAccount,
  });

  /** Saves a new account (its secrets sealed), starts its first sync and answers it as the API shows it. */
  async function insertAndSync(userId: number, kind: AccountRow["kind"], name: string, settings: object, secrets: object): Promise<Account> {
    const id = await repo.insert({ userId, kind, name, settings: JSON.stringify(settings), secrets: box.seal(JSON.stringify(secrets)), status: "syncing" });
    await startSync(await requireAccount(userId, id));
    return toApi(await requireAccount(userId, id));
  }

  async function createCalendar(userId: number, input: CreateCalendarAccountInput): Promise<Account> {
    const { settings, secrets } = calendarParts(input);
    return insertAndSync(userId, "calendar", input.name, settings, secrets);
  }

  async function updateCalendar(row: AccountRow, patch: UpdateCalendarAccountInput): Promise<Account> {
    if (readCalendarSettings(row).auth && (patch.caldav || patch.icsUrl)) throw badRequest(ACCOUNT_ERRORS.signInNotThisWay, "validation_error");
    const stored = readCalendarSecrets(box, row);
    let settings = readCalendarSettings(row);
    let secrets = stored;
    if (patch.icsUrl) ({ settings, secrets } = calendarParts({ icsUrl: patch.icsUrl }));
    if (patch.caldav) {
      const password = patch.caldav.password ?? (stored && "password" in stored ? stored.password : undefined);
      settings = { caldav: { url: patch.caldav.url, user: patch.caldav.user }, ics: null };
      secrets = password === undefined ? null : { password };
    }
    await repo.update(row.id, {
      ...(patch.name === undefined ? {} : { name: patch.name }),
      settings: JSON.stringify(settings),
      secrets: secrets ? box.seal(JSON.stringify(secrets)) : null,
    });
    const updated = await requireAccount(row.userId, row.id);
    if ((patch.caldav || patch.icsUrl) && secrets) await startSync(updated);
    return toApi(await requireAccount(row.userId, row.id));
  }

  async function createContacts(userId: number, input: CreateContactsAccountInput): Promise<Account> {
    const { settings, secrets } = contactsParts(input);
    return insertAndSync(userId, "contacts", input.name, settings, secrets);
  }

  /** Reaches the address books and counts their contacts, saying which step failed; nothing is saved. */
  async function testContacts(input: CreateContactsAccountInput): Promise<TestConnectionResponse> {
    try {
      const connection = await deps.connectCarddav(input.carddav, deps.rule);
      const cards = await connection.cards();
      return { ok: true, addressBooks: connection.addressBooks.map((book) => book.name), contacts: cards.length };
    } catch (error) {
      if (!(error instanceof MailConnectionError)) throw error;
      return { ok: false, problem: error.problem, message: contactsProblemMessage(error.problem, contactsHost(contactsParts(input).settings)) };
    }
  }

  /** Reaches the calendar and reads it, saying which step failed; nothing is saved. */
  async function testCalendar(input: CreateCalendarAccountInput): Promise<TestConnectionResponse> {
    const { settings } = calendarParts(input);
    try {
      if (input.caldav) {
        const connection = await deps.connectCaldav(input.caldav, deps.rule);
        const objects = await connection.objects();
        return { ok: true, calendars: connection.calendars.map((calendar) => calendar.name), events: objects.length };
      }
      const text = await deps.fetchIcs(input.icsUrl!, deps.rule);
      const uids = new Set(text.match(/^UID:.*$/gim) ?? []);
      return { ok: true, calendars: [input.name], events: uids.size };
    } catch (error) {
      if (!(error instanceof MailConnectionError)) throw error;
      return { ok: false, problem: error.problem, message: calendarProblemMessage(error.problem, calendarHost(settings)) };
    }
  }

  return {
    async list(userId: number): Promise<Account[]> {
      return Promise.all((await repo.list(userId)).map(toApi));
    },

    /** Saves the account and starts its first sync; a failure to connect shows as the account's error. */
    async create(userId: number, input: CreateAnyAccountInput): Promise<Account> {
      if (input.kind === "calendar") return createCalendar(userId, input);
      if (input.kind === "contacts") return createContacts(userId, input);
      const settings: MailSettings = {
        imap: serverPart(input.imap),
        smtp: input.smtp ? serverPart(input.smtp) : null,
        folders: input.folders,
        sinceDays: input.sinceDays,
        ...(input.address ? { address: input.address } : {}),
        ...(input.displayName ? { displayName: input.displayName } : {}),
      };
      const secrets: MailSecrets = { imap: secretPart(input.imap), smtp: input.smtp ? secretPart(input.smtp) : null };
      return insertAndSync(userId, "mail", input.name, settings, secrets);
    },

    /** A mail account that signs in with Google, Microsoft or the company's provider: `sign-in-needed` with its signInUrl. */
    async createSignedIn(userId: number, input: SignInAccountInput): Promise<Account> {
      return toApi(await signInAccounts.create(userId, input));
    },

    /** The accounts' part in sign-ins (the start route's ?account=, and what follows a sign-in). */
    signInOwner: signInAccounts.owner,

    /** Changes what was sent; a server sent without a password keeps the stored one. What to sync changed: a sync starts. */
    async update(userId: number, id: number, patch: UpdateAccountInput): Promise<Account> {
      const row = await requireAccount(userId, id);
      if (row.kind !== "mail") throw badRequest(ACCOUNT_ERRORS.notThisKind, "validation_error");
      const settings = readSettings(row);
      if (patch.address !== undefined) settings.address = patch.address;
      if (patch.displayName !== undefined) settings.displayName = patch.displayName || null;
      if (settings.auth) return signInAccounts.update(row, settings, patch).then(toApi);
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

    /** Changes a calendar account; a new address starts a sync. */
    async updateCalendar(userId: number, id: number, patch: UpdateCalendarAccountInput): Promise<Account> {
      return updateCalendar(await requireAccount(userId, id), patch);
    },

    /** Changes a contacts account; a new server starts a sync. */
    async updateContacts(userId: number, id: number, patch: UpdateContactsAccountInput): Promise<Account> {
      const row = await requireAccount(userId, id);
      const stored = readContactsPassword(box, row);
      let settings = readContactsSettings(row);
      let password = stored;
      if (patch.carddav) {
        settings = { carddav: { url: patch.carddav.url, user: patch.carddav.user } };
        password = patch.carddav.password ?? stored;
      }
      await repo.update(id, {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        settings: JSON.stringify(settings),
        secrets: password === null ? null : box.seal(JSON.stringify({ password })),
      });
      if (patch.carddav && password !== null) await startSync(await requireAccount(userId, id));
      return toApi(await requireAccount(userId, id));
    },

    /** The account's kind, to read a PATCH by (404 for another user's). */
    async kindOf(userId: number, id: number): Promise<AccountKind> {
      return (await requireAccount(userId, id)).kind;
    },

    /** The 15-minute round: a sync for each calendar account not synced (or tried) in the last 15 minutes. */
    async syncDueCalendars(now = new Date()): Promise<number> {
      const due = await repo.calendarsDue(new Date(now.getTime() - CALENDAR_SYNC_EVERY_MS).toISOString());
      for (const row of due) await startSync(row);
      return due.length;
    },

    /** The mail poll round: a quiet sync for each mail account due (see MAIL_POLL_MS), of every user. */
    async syncDueMail(now = new Date()): Promise<number> {
      const due = await repo.mailDue(new Date(now.getTime() - MAIL_POLL_MS).toISOString(), new Date(now.getTime() - MAIL_RETRY_FAILED_MS).toISOString());
      const ready = due.filter((row) => row.grantId !== null || box.open(row.secrets ?? "") !== null);
      for (const row of ready) await startSync(row, { quiet: true });
      return ready.length;
    },

    /** Deletes the account and everything it synced (its knowledge folder, with the messages' text and files). */
    async remove(userId: number, id: number): Promise<void> {
      const row = await requireAccount(userId, id);
      const removed = await repo.remove(userId, id);
      queued.delete(id);
      // The last account of a sign-in takes it along: its token is revoked at the provider, so SAGE keeps no access.
      if (row.grantId !== null && (await repo.withGrant(row.grantId)).length === 0) await deps.signIn.revoke(row.grantId);
      // A sync running meanwhile stops at its next batch, seeing the account gone; its folder is then removed whole.
      await running.get(id)?.catch(() => undefined);
      if (removed?.folderItemId != null) await deps.knowledge.removeFolder(userId, removed.folderItemId);
    },

    /** Starts a sync now (or says a password is needed); answers the account as it then stands. */
    async sync(userId: number, id: number): Promise<Account> {
      const row = await requireAccount(userId, id);
      const auth = await authOf(row);
      if (auth ? auth.signedIn : box.open(row.secrets ?? "") !== null) await startSync(row);
      else await repo.update(id, { status: auth ? "sign-in-needed" : "password-needed" });
      return toApi(await requireAccount(userId, id));
    },

    /** Reaches the servers and reads them, saying which step failed; nothing is saved. */
    async testConnection(input: CreateAnyAccountInput): Promise<TestConnectionResponse> {
      if (input.kind === "calendar") return testCalendar(input);
      if (input.kind === "contacts") return testContacts(input);
      return testMail(input);
    },
  };

  /** Logs in and opens each folder, saying which step failed; nothing is saved. */
  async function testReceiving(input: CreateAccountInput) {
    let connection: ImapConnection | undefined;
    try {
      connection = await deps.connect({ ...serverPart(input.imap), ...secretPart(input.imap) }, deps.rule);
      const folders = await connection.listFolders();
      for (const folder of input.folders) await connection.openFolder(folder);
      return { folders, step: { ok: true, problem: null, message: "Receiving works." } };
    } catch (error) {
      if (!(error instanceof MailConnectionError)) throw error;
      const words = connectionProblemMessage(error.problem, { ...input.imap, folder: error.folder });
      return { folders: [], step: { ok: false, problem: error.problem, message: stepMessage("Receiving", words) } };
    } finally {
      await connection?.close();
    }
  }

  /** Connect, TLS, AUTH, MAIL FROM with the sender address, RSET: nothing is sent. The server's reply goes to the log. */
  async function testSending(input: CreateAccountInput) {
    if (!input.smtp) return null;
    const address = input.address ?? [input.smtp.user, input.imap.user].find((user) => isAddress(user)) ?? input.smtp.user;
    try {
      await deps.probeSmtp({ ...serverPart(input.smtp), ...secretPart(input.smtp) }, deps.rule, address);
      return { ok: true, problem: null, message: "Sending works." };
    } catch (error) {
      if (!(error instanceof MailConnectionError)) throw error;
      deps.warn(`a test of sending through ${input.smtp.host}:${input.smtp.port} failed at the ${error.problem} step`, error);
      return { ok: false, problem: error.problem, message: stepMessage("Sending", smtpProblemMessage(error.problem, { ...input.smtp, address })) };
    }
  }

  /** Receiving and sending, each step in words: "Receiving works. Sending: the server refused the sender address exec: ..." */
  async function testMail(input: CreateAccountInput): Promise<TestConnectionResponse> {
    const [receiving, sending] = await Promise.all([testReceiving(input), testSending(input)]);
    return {
      ok: receiving.step.ok && (sending?.ok ?? true),
      message: [receiving.step.message, sending?.message].filter(Boolean).join(" "),
      folders: receiving.folders,
      receiving: receiving.step,
      sending,
      problem: receiving.step.problem ?? sending?.problem ?? null,
    };
  }
}

export type AccountsService = ReturnType<typeof createAccountsService>;
