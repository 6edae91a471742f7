import type { AppModule } from "../../http/app-module.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { connectImap, MailConnectionError, type PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import type { Store } from "../../store/open-store.ts";
import type { BackupPart } from "../backup/backup.module.ts";
import { createAccountsBackup } from "./accounts-backup.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { MailKnowledgePort } from "../knowledge/knowledge.module.ts";
import type { DocumentSearchPort } from "../retrieval/retrieval.module.ts";
import { createAccountsRepo } from "./accounts.repo.ts";
import { registerAccountRoutes } from "./accounts.routes.ts";
import { createAccountsService } from "./accounts.service.ts";
import { sendSmtp } from "../../providers/mail/smtp-client.ts";
import { probeSmtp } from "../../providers/mail/smtp-probe.ts";
import { connectGraph } from "../../providers/calendar/graph-calendar.ts";
import type { SignInPort } from "../sign-in/sign-in.module.ts";
import { createMailCredentials, type MailServers } from "./account-credentials.ts";
import { readSettings } from "./account-settings.ts";
import { createCalendarSource } from "./calendar-source.ts";
import { createMailSearch, type MailSearch } from "./mail-search.ts";
import { connectCaldav } from "../../providers/calendar/caldav-client.ts";
import { expandCalendar } from "../../providers/calendar/expand-calendar.ts";
import { fetchIcs } from "../../providers/calendar/ics-fetch.ts";
import { createCalendarEventsRepo } from "./calendar-events.repo.ts";
import { MAIL_ROUND_MS } from "./accounts.service.ts";
import type { ConnectCaldav } from "./calendar-sync.ts";
import { createCalendarAgenda, type CalendarAgenda } from "./calendar-agenda.ts";
import { createMailSender, type MailSender } from "./mail-sender.ts";
import type { ConnectImap } from "./mail-sync.ts";
import { createMailboxMarks, type MailboxMarks } from "./mailbox-marks.ts";
import { createMailMoves, type MailMoves } from "./mail-moves.ts";
import { connectCarddav } from "../../providers/contacts/carddav-client.ts";
import { createContactCardsRepo, type ConnectCarddav } from "./contacts-sync.ts";
import type { AccountKind } from "./accounts.service.ts";

export type { AccountKind } from "./accounts.service.ts";
/** Called when an account's sync finished: the people pages and the inbox triage read what it brought. */
export type SyncedListener = (userId: number, kind: AccountKind, accountId: number) => void;

export type { MailHit, ThreadMessage } from "./mail-search.ts";
export type { ConnectImap } from "./mail-sync.ts";
export { MailSendError, type DraftPlace, type MailToSend, type SavedDraft } from "./mail-sender.ts";
export { MailMoveError, type MailMoved, type MailToMove } from "./mail-moves.ts";
/** Inbox triage's reach into the mail server: a prepared draft saved (and its place), and its own earlier draft removed. */
export type InboxPort = Pick<MailSender, "saveDraft"> & MailboxMarks;

/**
 * What the assistant's mail tools and the morning briefing use: the user's synced mail (read-only), drafts (nothing
 * leaves), and sending, moving to Trash and archiving, which only sendEmail, deleteMail and archiveMail do after Approve.
 */
export type MailPort = Pick<MailSearch, "hasMail" | "search" | "readThread" | "awaitingReply" | "people" | "mailItems"> &
  Pick<MailSender, "sender" | "send" | "draft"> &
  MailMoves;

/** What the assistant's calendar tools use: the synced events (read-only), and writing, which only createEvent/updateEvent do after Approve. */
export type CalendarPort = CalendarAgenda;
export { CalendarWriteError, CALENDAR_WRITE_TEXTS, type AgendaEvent, type EventToWrite } from "./calendar-agenda.ts";

/**
 * A mail account another module reads and answers with (the e-mail channel, decision 078): its servers with what logs
 * in to them, asked each time (a sign-in's token is refreshed), and the address rule its connections follow.
 */
export interface MailboxPort {
  open(userId: number, accountId: number): Promise<{ name: string; canSend: boolean; servers(): Promise<MailServers>; rule: PrivateAddressRule } | null>;
}

export interface AccountsModule extends AppModule {
  mail: MailPort;
  /** What inbox triage does on the mail server: prepare drafts, replacing its own. */
  inbox: InboxPort;
  mailbox: MailboxPort;
  calendar: CalendarPort;
  syncDueCalendars(now?: Date): Promise<number>;
  /** The mail poll round (every MAIL_ROUND_MS in a running app): answers how many accounts it started syncing. */
  syncDueMail(now?: Date): Promise<number>;
  /** Syncs each of the user's calendars now (their time zone changed). */
  syncCalendarsOf(userId: number): Promise<void>;
  /** Accounts (without secrets) and their synced mail headers in the knowledge backup, in this order. */
  backupParts: BackupPart[];
  /** Listens for finished syncs (people, triage). */
  onSynced(listener: SyncedListener): void;
}

/** Settings > Accounts: each user's mail accounts, their secrets sealed, their mail synced into the knowledge base. */
export function createAccountsModule(deps: {
  store: Pick<Store, "db">;
  jobs: JobQueue;
  box: SecretBox;
  knowledge: MailKnowledgePort;
  search: DocumentSearchPort;
  rule: PrivateAddressRule;
  maxMessageBytes: number;
  /** The IMAP client (tests may wrap it). */
  connect?: ConnectImap;
  /** The CalDAV client (tests may wrap it). */
  connectCaldav?: ConnectCaldav;
  /** Sign-in with Google, Microsoft or the company's provider: tokens instead of passwords (decision 070). */
  signIn: SignInPort;
  /** The CardDAV client (tests may wrap it). */
  connectCarddav?: ConnectCarddav;
  /** Floating and all-day times of a user without a time zone of their own are read in this one. */
  defaultTimeZone: string;
  warn(message: string, error?: unknown): void;
}): AccountsModule {
  const repo = createAccountsRepo(deps.store.db);
  const calendar = createCalendarEventsRepo(deps.store.db);
  const backup = createAccountsBackup(deps.store.db);
  const credentials = createMailCredentials({ box: deps.box, signIn: deps.signIn });
  const source = createCalendarSource({ box: deps.box, signIn: deps.signIn });
  const listeners: SyncedListener[] = [];
  const service = createAccountsService({
    cards: createContactCardsRepo(deps.store.db),
    connectCarddav: deps.connectCarddav ?? connectCarddav,
    onSynced: (userId, kind, accountId) => {
      for (const listener of listeners) listener(userId, kind, accountId);
    },
    calendar,
    connectCaldav: deps.connectCaldav ?? connectCaldav,
    connectGraph,
    source,
    credentials,
    signIn: deps.signIn,
    probeSmtp,
    fetchIcs,
    expand: expandCalendar,
    defaultTimeZone: deps.defaultTimeZone,
    repo,
    box: deps.box,
    knowledge: deps.knowledge,
    connect: deps.connect ?? connectImap,
    rule: deps.rule,
    maxMessageBytes: deps.maxMessageBytes,
    jobs: deps.jobs,
    warn: deps.warn,
  });
  const mail = {
    ...createMailSearch({ repo, search: deps.search }),
    ...createMailSender({ repo, credentials, rule: deps.rule, send: sendSmtp, connect: deps.connect ?? connectImap, warn: deps.warn }),
    ...createMailMoves({ repo, credentials, knowledge: deps.knowledge, rule: deps.rule, connect: deps.connect ?? connectImap, warn: deps.warn }),
  };
  const inbox: InboxPort = {
    saveDraft: mail.saveDraft,
    ...createMailboxMarks({ repo, credentials, rule: deps.rule, connect: deps.connect ?? connectImap }),
  };
  const agenda = createCalendarAgenda({
    repo,
    calendar,
    source,
    rule: deps.rule,
    connectCaldav: deps.connectCaldav ?? connectCaldav,
    connectGraph,
    defaultTimeZone: deps.defaultTimeZone,
    syncNow: async (userId, accountId) => {
      await service.sync(userId, accountId);
    },
  });
  deps.signIn.addOwner(service.signInOwner);
  let round: NodeJS.Timeout | undefined;
  const mailbox: MailboxPort = {
    async open(userId, accountId) {
      const row = await repo.find(userId, accountId);
      if (!row || row.kind !== "mail") return null;
      return {
        name: row.name,
        canSend: Boolean(readSettings(row).smtp),
        rule: deps.rule,
        async servers() {
          const current = (await repo.find(userId, accountId)) ?? row;
          const servers = await credentials(current);
          if (!servers) throw new MailConnectionError("login", `the password of ${row.name} is needed again`);
          return servers;
        },
      };
    },
  };
  return {
    mail,
    inbox,
    mailbox,
    calendar: agenda,
    syncDueCalendars: service.syncDueCalendars,
    syncDueMail: service.syncDueMail,
    backupParts: [backup.accounts, backup.messages] as BackupPart[],
    onSynced: (listener) => void listeners.push(listener),
    async syncCalendarsOf(userId) {
      for (const account of await service.list(userId)) if (account.kind === "calendar") await service.sync(userId, account.id);
    },
    register(app) {
      registerAccountRoutes(app, { service, agenda });
      // One round every 20 seconds: mail not synced for 100 seconds (so new mail arrives within 2 minutes) and
      // calendars not synced for 15 minutes get a sync job.
      app.addHook("onReady", async () => {
        round = setInterval(() => {
          service.syncDueMail().catch((error) => deps.warn("the mail sync round failed", error));
          service.syncDueCalendars().catch((error) => deps.warn("the calendar sync round failed", error));
        }, MAIL_ROUND_MS);
        round.unref();
      });
      app.addHook("onClose", async () => clearInterval(round));
    },
  };
}
