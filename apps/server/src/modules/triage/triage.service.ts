import {
  MAILBOX_KEYWORDS,
  TRIAGE_TEXTS,
  type FollowUp,
  type TriageItem,
  type TriageLabel,
  type TriageRules,
  type TriageSettings,
  type UpdateTriageSettings,
} from "@sage/contracts/triage";
import type { Insertable } from "kysely";
import { AppError, notFound } from "../../http/app-error.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { InboxPort } from "../accounts/accounts.module.ts";
import { partiesOf, SENT_FOLDER, type PeoplePort } from "../people/people.module.ts";
import { askedIn, sortMail, MAIL_TEXT_CHARS, type MailToSort } from "./classify-mail.ts";
import { learnStyle, mailBody, type WritingStyle } from "./learn-style.ts";
import { answeredBy, repliedTo, sentByUser, workingDaysSince } from "./mail-threads.ts";
import { readRule, type ReadRule } from "./triage-rules.ts";
import type { MailTriageTable } from "../../store/schema.ts";
import { eachAtOnce } from "./each-at-once.ts";
import type { MailRow, SettingsRow, TriageRepo, TriageRow } from "./triage.repo.ts";
import { writeNudge, writeReply } from "./write-draft.ts";

const DAY = 86_400_000;
/** Mail read per batch of a round. */
const BATCH = 100;
/** Mails with the model at once: a first sync's 10,000 mails one after another would take hours (decision 107). */
const AT_ONCE = 8;
/** Mails labelled in the mailbox per IMAP round trip. */
const LABEL_BATCH = 500;
/** A sent mail older than this is not read for what it asked: a follow-up is about this month's mail. */
const SENT_HORIZON_DAYS = 30;
/** Threads are followed this far back (an answer to a mail comes after it). */
const THREAD_DAYS = 90;
/** The user's style is learned again after a day, from this many of their sent mails. */
const STYLE_MAX_AGE = DAY;
const STYLE_FROM = 40;
/** Draft folders hold SAGE's own drafts (and the user's unsent ones): never sorted, never an answer. */
const DRAFTS_FOLDER = /draft|entw[uü]rf|brouillon|borrador|bozze|concept/i;

export interface TriageServiceDeps {
  repo: TriageRepo;
  llm: LlmProvider | null;
  people: PeoplePort;
  inbox: InboxPort;
  itemText(userId: number, itemId: number, maxChars: number): Promise<string>;
  timeZone(userId: number): Promise<string>;
  now: () => Date;
  warn(message: string, error?: unknown): void;
}

/** The user's rules: those SAGE checks itself, and those it hands to the model as the user's instruction. */
export function readRules(rules: readonly string[]): { read: ReadRule[]; unread: string[]; shown: TriageRules } {
  const read: ReadRule[] = [];
  const unread: string[] = [];
  const shown: TriageRules["rules"] = [];
  for (const text of rules) {
    const rule = readRule(text);
    if (rule) read.push(rule);
    else unread.push(text);
    shown.push(
      rule
        ? { text: rule.text, understood: true, meaning: rule.meaning }
        : { text, understood: false, meaning: "SAGE gives this rule to the model as your instruction." },
    );
  }
  return { read, unread, shown: { rules: shown } };
}

const parseList = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]));
const reSubject = (subject: string) => (/^re\s*:/i.test(subject) ? subject : `Re: ${subject}`);
const senderOf = (row: { fromAddress: string }) => partiesOf(row.fromAddress)[0]?.address ?? row.fromAddress.toLowerCase();

/**
 * The triaged inbox (issue 53, decision 095): a round sorts the user's new mail (rules first, then the model's
 * structured output, checked), reads what their sent mail asked for, and prepares reply drafts in their voice
 * (decision 098) for people they deal with; the lists answer "Needs your reply" and "Waiting on others".
 */
export function createTriageService(deps: TriageServiceDeps) {
  const { repo } = deps;

  async function settingsOf(userId: number): Promise<SettingsRow> {
    return (
      (await repo.settings(userId)) ?? {
        userId,
        // Every synced mail of the chosen folders is sorted unless the user turns sorting off (issue 53, decision 095).
        enabled: 1,
        rules: "[]",
        folders: null,
        followUpDays: 3,
        drafts: 1,
        style: null,
        styleAt: null,
        updatedAt: deps.now().toISOString(),
        labelInMailbox: 0,
      }
    );
  }

  async function mailText(userId: number, row: { itemId: number | null }): Promise<string> {
    if (row.itemId === null) return "";
    return mailBody(await deps.itemText(userId, row.itemId, MAIL_TEXT_CHARS + 2_000)).slice(0, MAIL_TEXT_CHARS);
  }

  /** The user's style, learned from their sent mail at most once a day (decision 098). */
  async function styleOf(userId: number, settings: SettingsRow): Promise<WritingStyle> {
    if (settings.style && settings.styleAt && deps.now().getTime() - new Date(settings.styleAt).getTime() < STYLE_MAX_AGE)
      return JSON.parse(settings.style) as WritingStyle;
    const sent = await repo.sentMail(userId, STYLE_FROM);
    const texts = await Promise.all(
      sent.map(async (row) => ({ to: row.toAddress, text: row.itemId === null ? "" : await deps.itemText(userId, row.itemId, 4_000) })),
    );
    const style = learnStyle(texts);
    await repo.saveSettings(userId, { style: JSON.stringify(style), styleAt: deps.now().toISOString() });
    return style;
  }

  /** Writes a reply (a received mail) or a nudge (a sent one) and saves it in the Drafts folder, replacing SAGE's earlier one. */
  async function prepareDraft(userId: number, messageId: number): Promise<void> {
    const row = await repo.one(userId, messageId);
    if (!row) throw notFound(TRIAGE_TEXTS.messageNotFound, "message_not_found");
    if (!deps.llm) throw new AppError("no_model", 503, TRIAGE_TEXTS.noModel);
    const style = await styleOf(userId, await settingsOf(userId));
    const text = await mailText(userId, row);
    const body =
      row.direction === "sent"
        ? await writeNudge(deps.llm, style, { to: row.toAddress, subject: row.subject, date: row.date, asked: row.asked ?? row.subject })
        : await writeReply(deps.llm, style, { from: row.fromAddress, subject: row.subject, date: row.date, text });
    const to = row.direction === "sent" ? partiesOf(row.toAddress).map((party) => party.address) : [senderOf(row)];
    const subject = reSubject(row.subject);
    const { saved, place } = await deps.inbox.saveDraft(userId, { to, cc: [], subject, body, inReplyTo: messageId });
    if (row.draftAccountId !== null && row.draftFolder && row.draftUid !== null) {
      // The earlier draft SAGE prepared goes (by its UID, so only SAGE's own); a failure leaves two, never none.
      await deps.inbox
        .removeDraft(userId, { accountId: row.draftAccountId, folder: row.draftFolder, uid: row.draftUid })
        .catch((error: unknown) => deps.warn("an earlier prepared draft was not removed", error));
    }
    await repo.update(userId, messageId, {
      draftAccountId: place.accountId,
      draftAccount: saved.account,
      draftFolder: place.folder,
      draftSubject: subject,
      draftUid: place.uid,
      draftAt: deps.now().toISOString(),
    });
  }

  /** Sorts what is new: one batch after another until every new mail was read once this round. */
  async function round(userId: number): Promise<number> {
    const settings = await settingsOf(userId);
    if (!settings.enabled || !deps.llm) return 0;
    const own = new Set(await deps.people.ownAddresses(userId));
    // While mail the user sent is still being read, the round waits for the next sync's: their style and what they
    // asked for are learned from the words of all of it (a first sync reads for a while after it ends).
    const reading = await repo.reading(userId, 200);
    if (reading.some((row) => SENT_FOLDER.test(row.folder) || partiesOf(row.fromAddress).some((party) => own.has(party.address)))) return 0;
    const llm = deps.llm;
    const rules = readRules(parseList(settings.rules) ?? []);
    const folders = new Set(parseList(settings.folders) ?? ["INBOX"]);
    const directory = await deps.people.directory(userId);
    const now = deps.now();
    const skipped = new Set<number>();
    const toDraft: number[] = [];
    let sorted = 0;
    for (;;) {
      const batch = (await repo.unsorted(userId, BATCH + skipped.size)).filter((row) => !skipped.has(row.id));
      if (batch.length === 0) break;
      // Several mails are with the model at once (each its own request: one mail's words never reach another's);
      // the batch's labels are filed in one statement (every row names every column: SQLite has no DEFAULT in VALUES).
      const decided = await eachAtOnce(batch, AT_ONCE, (row) => sortOne(userId, row, { llm, rules, folders, own, directory, now }));
      const filed: Insertable<MailTriageTable>[] = [];
      batch.forEach((row, index) => {
        const done = decided[index];
        if (!done) return void skipped.add(row.id);
        filed.push(done.row);
        if (done.draft && settings.drafts) toDraft.push(row.id);
      });
      await repo.insertMany(filed);
      sorted += filed.length;
    }
    if (toDraft.length) {
      // A mail the user has answered meanwhile gets no draft.
      const { headers } = await threads(userId);
      const byId = new Map(headers.map((header) => [header.id, header]));
      for (const messageId of toDraft) {
        const header = byId.get(messageId);
        if (header && repliedTo(header, headers, own)) continue;
        await prepareDraft(userId, messageId).catch((error: unknown) => deps.warn("a reply draft was not prepared", error));
      }
    }
    await draftNudges(userId, settings);
    if (settings.labelInMailbox) await labelInMailbox(userId);
    return sorted;
  }

  /**
   * "Label in my mailbox" (decision 107): sorted mail not yet labelled on the server gets its label's IMAP keyword
   * (and $SAGE-urgent), one connection per account; mail sorted before the user turned it on too. A mail whose write
   * failed is tried again at the next round. Never called unless the user turned it on.
   */
  async function labelInMailbox(userId: number): Promise<void> {
    for (;;) {
      const rows = await repo.unlabelled(userId, LABEL_BATCH);
      if (rows.length === 0) return;
      const done: number[] = [];
      const byAccount = new Map<number, typeof rows>();
      for (const row of rows) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
      for (const [accountId, mails] of byAccount) {
        const labelled = await deps.inbox
          .labelMessages(
            userId,
            accountId,
            mails.map((row) => ({
              folder: row.folder,
              uid: row.uid,
              keywords: [MAILBOX_KEYWORDS[row.label], ...(row.urgent ? [MAILBOX_KEYWORDS.urgent] : [])],
            })),
          )
          .catch((error: unknown) => {
            deps.warn("labels were not written to the mailbox", error);
            return false;
          });
        if (labelled) done.push(...mails.map((row) => row.messageId));
      }
      if (done.length === 0) return;
      await repo.markInMailbox(userId, done);
      if (rows.length < LABEL_BATCH) return;
    }
  }

  async function sortOne(
    userId: number,
    row: MailRow,
    context: {
      llm: LlmProvider;
      rules: ReturnType<typeof readRules>;
      folders: Set<string>;
      own: Set<string>;
      directory: Awaited<ReturnType<PeoplePort["directory"]>>;
      now: Date;
    },
  ): Promise<{ row: Insertable<MailTriageTable>; draft: boolean } | null> {
    if (DRAFTS_FOLDER.test(row.folder)) return null;
    const base = { messageId: row.id, userId, createdAt: context.now.toISOString() };
    if (sentByUser(row, context.own)) {
      const recent = row.date !== null && context.now.getTime() - new Date(row.date).getTime() < SENT_HORIZON_DAYS * DAY;
      const asked = recent ? await askedIn(context.llm, { to: row.toAddress, subject: row.subject, date: row.date, text: await mailText(userId, row) }) : null;
      if (asked === undefined) return null;
      return {
        row: { ...base, direction: "sent", label: "waiting-on-others", urgent: 0, reason: asked ?? "", urgentReason: null, decidedBy: "model", asked },
        draft: false,
      };
    }
    if (!context.folders.has(row.folder)) return null;
    const address = senderOf(row);
    const person = context.directory.get(address);
    const mail: MailToSort = {
      fromName: partiesOf(row.fromAddress)[0]?.name ?? null,
      fromAddress: address,
      subject: row.subject,
      to: row.toAddress,
      date: row.date,
      text: await mailText(userId, row),
      sender: person ? { name: person.name, organisation: person.organisation, role: person.role, groups: person.groups } : null,
      knownSender: Boolean(person && !person.hidden),
    };
    const result = await sortMail(context.llm, context.rules, mail);
    if (!result) return null;
    return {
      row: {
        ...base,
        direction: "received",
        label: result.label,
        urgent: result.urgent ? 1 : 0,
        reason: result.reason,
        urgentReason: result.urgentReason,
        decidedBy: result.decidedBy,
        asked: null,
      },
      draft: result.label === "needs-reply" && mail.knownSender,
    };
  }

  const draftOf = (row: TriageRow) =>
    row.draftFolder && row.draftSubject && row.draftAt
      ? { draft: { folder: row.draftFolder, subject: row.draftSubject, account: row.draftAccount ?? "", preparedAt: row.draftAt } }
      : {};

  async function threads(userId: number) {
    const since = new Date(deps.now().getTime() - THREAD_DAYS * DAY).toISOString();
    const headers = (await repo.headersSince(userId, since)).filter((row) => !DRAFTS_FOLDER.test(row.folder));
    return { headers, own: new Set(await deps.people.ownAddresses(userId)) };
  }

  /** Mail the user sent that asked for something and has had no answer for followUpDays working days, oldest first. */
  async function waiting(userId: number): Promise<FollowUp[]> {
    const settings = await settingsOf(userId);
    const rows = (await repo.listed(userId, "sent")).filter((row) => row.asked && row.date);
    if (rows.length === 0) return [];
    const { headers, own } = await threads(userId);
    const zone = await deps.timeZone(userId);
    const now = deps.now();
    return rows.flatMap((row) => {
      const waitingDays = workingDaysSince(row.date!, now, zone);
      if (waitingDays < settings.followUpDays) return [];
      if (answeredBy({ ...row, id: row.messageId, messageId: row.headerId }, headers, own)) return [];
      const { draft } = draftOf(row);
      return [
        {
          messageId: row.messageId,
          to: row.toAddress,
          subject: row.subject,
          date: row.date,
          asked: row.asked!,
          waitingDays,
          ...(draft ? { nudge: draft } : {}),
        },
      ];
    });
  }

  /** Follow-ups get a nudge drafted when they first show (once each). */
  async function draftNudges(userId: number, settings: SettingsRow): Promise<void> {
    if (!deps.llm || !settings.drafts) return;
    const undrafted = new Set((await repo.listed(userId, "sent")).filter((row) => row.draftAt === null).map((row) => row.messageId));
    for (const followUp of await waiting(userId))
      if (undrafted.has(followUp.messageId))
        await prepareDraft(userId, followUp.messageId).catch((error: unknown) => deps.warn("a nudge draft was not prepared", error));
  }

  return {
    round,
    prepareDraft,

    /** Sorted received mail, oldest first; "Needs your reply" leaves out what the user has answered since. */
    async list(userId: number, label?: TriageLabel): Promise<TriageItem[]> {
      const rows = await repo.listed(userId, "received", label);
      const { headers, own } = rows.some((row) => row.label === "needs-reply") ? await threads(userId) : { headers: [], own: new Set<string>() };
      return rows
        .filter((row) => row.label !== "needs-reply" || !repliedTo({ ...row, id: row.messageId, messageId: row.headerId }, headers, own))
        .map((row) => ({
          messageId: row.messageId,
          from: row.fromAddress,
          subject: row.subject,
          date: row.date,
          label: row.label,
          urgent: row.urgent === 1,
          reason: row.reason,
          urgentReason: row.urgentReason,
          decidedBy: row.decidedBy,
          ...draftOf(row),
        }));
    },

    waiting,

    async rules(userId: number): Promise<TriageRules> {
      return readRules(parseList((await settingsOf(userId)).rules) ?? []).shown;
    },

    /** The user's rules replace the earlier ones; mail is sorted by them from the next round on. */
    async setRules(userId: number, rules: string[]): Promise<TriageRules> {
      await repo.saveSettings(userId, { rules: JSON.stringify(rules) });
      return readRules(rules).shown;
    },

    async settings(userId: number): Promise<TriageSettings> {
      const row = await settingsOf(userId);
      const style = row.style ? (JSON.parse(row.style) as WritingStyle) : null;
      return {
        enabled: row.enabled === 1,
        folders: parseList(row.folders),
        followUpDays: row.followUpDays,
        drafts: row.drafts === 1,
        labelInMailbox: row.labelInMailbox === 1,
        style: style ? { greeting: style.greeting, signOff: style.signOff, words: style.words, learnedFrom: style.learnedFrom } : null,
        modelAvailable: deps.llm !== null,
      };
    },

    async updateSettings(userId: number, patch: UpdateTriageSettings): Promise<void> {
      await repo.saveSettings(userId, {
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled ? 1 : 0 }),
        ...(patch.folders === undefined ? {} : { folders: patch.folders === null ? null : JSON.stringify(patch.folders) }),
        ...(patch.followUpDays === undefined ? {} : { followUpDays: patch.followUpDays }),
        ...(patch.drafts === undefined ? {} : { drafts: patch.drafts ? 1 : 0 }),
        ...(patch.labelInMailbox === undefined ? {} : { labelInMailbox: patch.labelInMailbox ? 1 : 0 }),
      });
    },
  };
}

export type TriageService = ReturnType<typeof createTriageService>;
