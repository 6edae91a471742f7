import { MAX_SEARCH_LIMIT, type SearchResult } from "@sage/contracts/retrieval";
import type { DocumentSearchPort } from "../retrieval/retrieval.module.ts";
import type { AccountsRepo, MailFilters, MailMessageRow } from "./accounts.repo.ts";
import { readSettings } from "./account-settings.ts";

/** Messages one searchMail answers with. */
const MAIL_RESULTS = 8;
/** Messages of one thread readThread gives the model, and the text of each, so one long thread cannot flood a turn. */
const THREAD_MESSAGES = 10;
const MESSAGE_TEXT_CHARS = 8_000;

export interface MailHit {
  /** The id readThread takes. */
  id: number;
  subject: string;
  from: string;
  to: string;
  date: string | null;
  folder: string;
  /** The passage that matched, or the start of the message. */
  excerpt: string;
  /** For citing: the message as a search result that names its sender, subject and date. */
  citation: SearchResult | null;
}

/** A message of a thread: a hit with the message's text (up to a limit) in place of the matched passage. */
export type ThreadMessage = Omit<MailHit, "excerpt"> & { text: string };

const TOO_LARGE = "(This message is larger than the upload limit, so only its headers were synced.)";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "3 Dec 2026" (UTC): the day as citations and the model see it. */
const shownDate = (date: string | null) => {
  const at = date ? new Date(date) : null;
  return at && !Number.isNaN(at.getTime()) ? `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}` : "undated";
};

/**
 * A message as a cited source: its subject as the title, and where it sits and when it came as the place, as
 * knowledge search names a mail's passages ("Work mail/INBOX, 3 Dec 2026"), then who sent it.
 */
export function mailCitation(message: MailMessageRow, account: string, content: string, score: number, chunkId?: number): SearchResult | null {
  if (message.itemId === null) return null;
  return {
    content,
    score,
    metadata: {
      filename: message.subject || "(no subject)",
      source: `${account}/${message.folder}, ${shownDate(message.date)}, from ${message.fromAddress || "unknown sender"}`,
      file_id: message.itemId,
      // The same passage found by the turn's own knowledge search keeps its number.
      ...(chunkId === undefined ? {} : { chunk_id: chunkId }),
    },
  };
}

const REPLY_PREFIX = /^(?:(?:re|fwd?|aw|wg|sv|tr)\s*:\s*)+/i;
const threadSubjects = (subject: string) => {
  const core = subject.replace(REPLY_PREFIX, "").trim();
  return [...new Set([subject, core, ...["Re", "RE", "Fwd", "FW", "Fw", "AW"].map((prefix) => `${prefix}: ${core}`)])];
};

/** Messages looked at to learn whom the user writes to, and which threads they answered. */
const HISTORY_MESSAGES = 5_000;
const SENT_FOLDER = /sent|gesendet|envoy|enviad|inviat|verzonden|skickat|wysłane/i;
const addressesIn = (header: string) => (header.toLowerCase().match(/[^\s<>,;"']+@[^\s<>,;"']+/g) ?? []).map((address) => address.replace(/[.)]+$/, ""));
const threadKey = (subject: string) => subject.replace(REPLY_PREFIX, "").trim().toLowerCase();

/** searchMail and readThread over the user's synced mail: the knowledge index finds the words, the headers filter. */
export function createMailSearch(deps: { repo: AccountsRepo; search: DocumentSearchPort }) {
  const { repo } = deps;
  const opening = async (userId: number, message: MailMessageRow) => (message.itemId === null ? "" : await deps.search.itemText(userId, message.itemId, 600));
  /** Each of the user's accounts by id, to name where a message sits. */
  const accountNames = async (userId: number) => {
    const names = new Map((await repo.list(userId)).map((account) => [account.id, account.name]));
    return (message: MailMessageRow) => names.get(message.accountId) ?? "Mail";
  };

  return {
    /** Whether the user has connected a mail account (the mail tools are offered only then). */
    hasMail: async (userId: number) => (await repo.list(userId)).some((account) => account.kind === "mail"),

    async search(userId: number, input: MailFilters & { query?: string }): Promise<MailHit[]> {
      const filters: MailFilters = { from: input.from, since: input.since, until: input.until };
      const accountOf = await accountNames(userId);
      if (!input.query?.trim()) {
        const hits: MailHit[] = [];
        for (const message of await repo.recent(userId, filters, MAIL_RESULTS)) {
          const excerpt = await opening(userId, message);
          hits.push({ ...hitOf(message), excerpt, citation: mailCitation(message, accountOf(message), excerpt, 1) });
        }
        return hits;
      }
      // The system knowledge base, where synced mail lives; the best passage of each message stands for it.
      const found = await deps.search.search({ userId, query: input.query, limit: MAX_SEARCH_LIMIT, conversationId: 0 });
      const itemIds = [...new Set(found.flatMap((result) => (result.metadata.file_id === undefined ? [] : [result.metadata.file_id])))];
      const byItem = new Map((await repo.messagesOfItems(userId, itemIds, filters)).map((message) => [message.itemId, message]));
      const hits: MailHit[] = [];
      const seen = new Set<number>();
      for (const result of found) {
        const message = byItem.get(result.metadata.file_id ?? -1);
        if (!message || seen.has(message.id)) continue;
        seen.add(message.id);
        hits.push({
          ...hitOf(message),
          excerpt: result.content,
          citation: mailCitation(message, accountOf(message), result.content, result.score, result.metadata.chunk_id),
        });
        if (hits.length === MAIL_RESULTS) break;
      }
      return hits;
    },

    /** Which of these knowledge items are the user's synced messages (issue 47: mail goes with a message about mail). */
    async mailItems(userId: number, itemIds: number[]): Promise<Set<number>> {
      return new Set((await repo.messagesOfItems(userId, itemIds, {})).flatMap((message) => (message.itemId === null ? [] : [message.itemId])));
    },

    /**
     * The people the user writes to (the To and Cc of their sent mail, with the names their mail program gave them),
     * and the user's own addresses: whose addresses are the user's own data, not a mail's (issue 47).
     */
    async people(userId: number): Promise<{ address: string; name?: string }[]> {
      const own = new Map<string, string | undefined>();
      for (const account of await repo.list(userId)) {
        if (account.kind !== "mail") continue;
        const settings = readSettings(account);
        for (const user of [settings.imap?.user, settings.smtp?.user]) if (user?.includes("@")) own.set(user.toLowerCase(), undefined);
      }
      const people = new Map(own);
      for (const message of await repo.recent(userId, {}, HISTORY_MESSAGES)) {
        const sent = SENT_FOLDER.test(message.folder) || addressesIn(message.fromAddress).some((address) => own.has(address));
        if (!sent) continue;
        for (const entry of message.toAddress.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
          const address = addressesIn(entry)[0];
          if (!address || people.get(address)) continue;
          const name = /^\s*"?([^"<]+?)"?\s*</.exec(entry)?.[1]?.trim();
          people.set(address, name || undefined);
        }
      }
      return [...people].map(([address, name]) => (name ? { address, name } : { address }));
    },

    /**
     * Mail that may need the user's answer (the morning briefing): received since `since` from someone the user has
     * written to, in a thread the user has not written in since. Newest first, one per thread.
     */
    async awaitingReply(userId: number, since: string): Promise<MailHit[]> {
      const own = new Map(
        (await repo.list(userId)).flatMap((account) => {
          if (account.kind !== "mail") return [];
          const user = readSettings(account).imap?.user?.toLowerCase() ?? "";
          return [[account.id, user.includes("@") ? user : null] as const];
        }),
      );
      const history = await repo.recent(userId, {}, HISTORY_MESSAGES);
      const accountOf = await accountNames(userId);
      const sentBy = (message: MailMessageRow) => {
        const address = own.get(message.accountId);
        return SENT_FOLDER.test(message.folder) || (address !== null && address !== undefined && addressesIn(message.fromAddress).includes(address));
      };
      const writesTo = new Set<string>();
      const answered = new Map<string, string>(); // thread -> when the user last wrote in it
      for (const message of history) {
        if (!sentBy(message)) continue;
        for (const address of addressesIn(message.toAddress)) writesTo.add(address);
        const key = threadKey(message.subject);
        const at = message.date ?? "";
        if ((answered.get(key) ?? "") < at) answered.set(key, at);
      }
      const hits: MailHit[] = [];
      const seen = new Set<string>();
      for (const message of history) {
        if (!message.date || message.date < since || sentBy(message)) continue;
        const key = threadKey(message.subject);
        if (seen.has(key)) continue;
        seen.add(key);
        if (!addressesIn(message.fromAddress).some((address) => writesTo.has(address))) continue;
        if ((answered.get(key) ?? "") > message.date) continue;
        const excerpt = await opening(userId, message);
        hits.push({ ...hitOf(message), excerpt, citation: mailCitation(message, accountOf(message), excerpt, 1) });
      }
      return hits;
    },

    /** The message and the others of its thread (same subject once Re:/Fwd: are set aside), oldest first. */
    async readThread(userId: number, id: number): Promise<ThreadMessage[] | null> {
      const message = await repo.message(userId, id);
      if (!message) return null;
      const thread = await repo.sameSubject(message.accountId, threadSubjects(message.subject), THREAD_MESSAGES);
      const accountOf = await accountNames(userId);
      const messages: ThreadMessage[] = [];
      for (const entry of thread.some((other) => other.id === message.id) ? thread : [...thread, message]) {
        const text = entry.itemId === null ? TOO_LARGE : await deps.search.itemText(userId, entry.itemId, MESSAGE_TEXT_CHARS);
        messages.push({ ...hitOf(entry), text, citation: mailCitation(entry, accountOf(entry), text.slice(0, 600), 1) });
      }
      return messages;
    },
  };
}

function hitOf(message: MailMessageRow) {
  return { id: message.id, subject: message.subject, from: message.fromAddress, to: message.toAddress, date: message.date, folder: message.folder };
}

export type MailSearch = ReturnType<typeof createMailSearch>;
