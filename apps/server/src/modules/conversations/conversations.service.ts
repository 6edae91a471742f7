import {
  DEFAULT_CONVERSATION_NAME,
  DELETED_CONVERSATION_DAYS,
  type AppendMessageBody,
  type ConversationListItem,
  type DeletedConversation,
  type Message,
  type MessageSearchHit,
  type UpdateConversationBody,
} from "@sage/contracts/conversations";
import { badRequest, notFound } from "../../http/app-error.ts";
import { conversationTitle, firstLine } from "./conversation-title.ts";
import { messageMatcher, type FoldText } from "./message-matcher.ts";
import { toConversation, toMessage, type ConversationsRepo, type NewMessage } from "./conversations.repo.ts";

const CONVERSATION_NOT_FOUND = "Conversation not found";
const MESSAGE_NOT_FOUND = "Message not found";
// Message lists (as their JSON) kept in memory for the conversations used most recently, about this many bytes in all.
const MESSAGE_CACHE_BYTES = 16 * 1_048_576;

/** A conversation's messages as the JSON array the API answers. */
export type MessageListJson = string & { readonly __messageListJson: true };
const toJson = (messages: readonly Message[]) => JSON.stringify(messages) as MessageListJson;
/** The list with more messages: the JSON of the list before them, without re-serialising that. */
const withMessages = (json: MessageListJson, messages: readonly Message[]) => {
  const added = messages.map((message) => JSON.stringify(message)).join(",");
  return `${json.length > 2 ? `${json.slice(0, -1)},` : "["}${added}]` as MessageListJson;
};

const DAY_MS = 86_400_000;
const purgeTime = (deletedAt: string) => new Date(Date.parse(deletedAt) + DELETED_CONVERSATION_DAYS * DAY_MS).toISOString();

/** Called after a conversation and everything in it were deleted for good (by the purge). */
export type ConversationDeletedListener = (userId: number, conversationId: number) => Promise<void>;

/** Conversations and messages of one user; another user's conversation is simply not found. */
export function createConversationsService(deps: {
  repo: ConversationsRepo;
  log?: (error: unknown) => void;
  /** How message search folds text; knowledge search's folding in the app, so both find the same words. */
  fold?: FoldText;
  germanSpelling?: (text: string) => string;
  /** Refuses (400) a model the server does not allow; the assistant's check, passed in by the app. */
  checkModel?: (model: string) => void;
  /** Other processes share the database and change it too: nothing is kept in memory between requests. */
  shared?: boolean;
}) {
  const { repo } = deps;
  const deletedListeners: ConversationDeletedListener[] = [];
  const restoredListeners: ConversationDeletedListener[] = [];
  // Each user's list, kept in memory between changes: it is read on every page open and by every
  // ownership check, and changes only through this service when one process owns the store (not when `shared`).
  const lists = new Map<number, ConversationListItem[]>();
  // Bumped by every change, so a list read that overlapped a change is never kept.
  const versions = new Map<number, number>();
  const changed = (userId: number) => {
    lists.delete(userId);
    versions.set(userId, (versions.get(userId) ?? 0) + 1);
  };

  // Recently used conversations' messages (Map order = least recently used first). Only this service writes
  // messages, and the repo's message calls are synchronous, so an entry is always the table's content.
  // Kept serialised: every append answers the whole list, and re-serialising it each time cost more than the insert.
  const messageLists = new Map<number, MessageListJson>();
  let cachedBytes = 0;
  const forgetMessages = (id: number) => {
    cachedBytes -= 2 * (messageLists.get(id)?.length ?? 0);
    messageLists.delete(id);
  };
  const rememberMessages = (id: number, json: MessageListJson) => {
    forgetMessages(id);
    const bytes = 2 * json.length;
    if (deps.shared || bytes > MESSAGE_CACHE_BYTES / 4) return json;
    while (cachedBytes + bytes > MESSAGE_CACHE_BYTES) forgetMessages(messageLists.keys().next().value!);
    messageLists.set(id, json);
    cachedBytes += bytes;
    return json;
  };
  // Bumped by every write of a conversation's messages, so a read that overlapped one is not kept.
  const messageVersions = new Map<number, number>();
  const messagesChanged = (id: number) => {
    forgetMessages(id);
    messageVersions.set(id, (messageVersions.get(id) ?? 0) + 1);
  };
  async function messagesOf(id: number): Promise<MessageListJson> {
    const cached = messageLists.get(id);
    if (cached) return rememberMessages(id, cached);
    const version = messageVersions.get(id) ?? 0;
    const json = toJson(await repo.listMessages(id));
    return (messageVersions.get(id) ?? 0) === version ? rememberMessages(id, json) : json;
  }

  /**
   * After an exchange, a conversation still called "New Conversation" is named after the user's first message
   * (decision 035). The rename only happens while the name is the default, so the user's own name always wins.
   */
  async function titleAfterExchange(id: number, rows: readonly Message[]): Promise<string | undefined> {
    if (!rows.some((row) => row.role === "model") || (await repo.nameOf(id)) !== DEFAULT_CONVERSATION_NAME) return undefined;
    const title = conversationTitle((await repo.firstUserMessage(id)) ?? "");
    return title && (await repo.renameFromDefault(id, title, DEFAULT_CONVERSATION_NAME)) ? title : undefined;
  }

  /** The cached list with the conversation's new last message (and name): cheaper than reading the list again. */
  function updateListed(userId: number, id: number, lastMessage: string, name: string | undefined) {
    const cached = lists.get(userId);
    if (!cached) return;
    const line = firstLine(lastMessage);
    const next = cached.map((item) => {
      if (item.id !== id) return item;
      const { lastMessage: _previous, ...rest } = item;
      return { ...rest, ...(name === undefined ? {} : { name }), ...(line ? { lastMessage: line } : {}) };
    });
    changed(userId);
    lists.set(userId, next);
  }

  /**
   * Saves messages in one transaction and answers the stored rows. On SQLite the rows are stored when this is
   * called, before it answers (a stopped turn's answer is saved at once).
   */
  async function appendMessages(userId: number, id: number, messages: readonly NewMessage[]): Promise<Message[]> {
    const cached = messageLists.get(id);
    const version = messageVersions.get(id) ?? 0;
    const appended = await repo.appendMessages(userId, id, messages);
    if (!appended) throw notFound(CONVERSATION_NOT_FOUND);
    const { rows, branched } = appended;
    // The cached list grows by the new rows only if nothing else changed it meanwhile; a new branch replaces part
    // of the shown path (and adds a sibling to a message): read again when next asked.
    const untouched = !branched && cached !== undefined && messageLists.get(id) === cached && (messageVersions.get(id) ?? 0) === version;
    messagesChanged(id);
    if (untouched) rememberMessages(id, withMessages(cached, rows));
    let title: string | undefined;
    try {
      title = await titleAfterExchange(id, rows);
    } catch (error) {
      deps.log?.(error); // a title is a nicety: the messages are saved whatever happens here
    }
    if (rows.length > 0) updateListed(userId, id, rows.at(-1)!.content, title);
    return rows;
  }

  async function list(userId: number): Promise<ConversationListItem[]> {
    const cached = lists.get(userId);
    if (cached) return cached;
    const version = versions.get(userId) ?? 0;
    const fresh = (await repo.list(userId)).map(({ lastMessage, unreadSince, ...row }) => {
      const conversation = toConversation(row);
      const line = lastMessage ? firstLine(lastMessage) : "";
      return { ...conversation, ...(line ? { lastMessage: line } : {}), ...(unreadSince ? { unread: true as const } : {}) };
    });
    if (!deps.shared && (versions.get(userId) ?? 0) === version) lists.set(userId, fresh);
    return fresh;
  }

  // The list's JSON, made once per cached list (GET /api/conversations answers it on every page open).
  const listJsons = new WeakMap<ConversationListItem[], string>();
  async function listJson(userId: number): Promise<string> {
    const conversations = await list(userId);
    let json = listJsons.get(conversations);
    if (json === undefined) listJsons.set(conversations, (json = JSON.stringify(conversations)));
    return json;
  }

  async function requireOwned(userId: number, id: number) {
    const conversation = (await list(userId)).find((item) => item.id === id);
    if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
    return conversation;
  }

  /** Messages are read newest first, this many at a time, until enough match. */
  const SEARCH_PAGE = 500;
  const fold = deps.fold ?? ((text: string) => text.normalize("NFKC").toLowerCase());

  return {
    list,
    listJson,
    /** A scheduled run wrote here: the list shows it unread until the user opens it (decision 041). */
    async markUnread(userId: number, id: number, at: string) {
      if (await repo.setUnread(userId, id, at)) changed(userId);
    },
    /** The user opened it. */
    async markRead(userId: number, id: number) {
      await requireOwned(userId, id);
      if ((await list(userId)).find((item) => item.id === id)?.unread) {
        await repo.setUnread(userId, id, null);
        changed(userId);
      }
      return { ok: true as const };
    },
    /** The user's messages (in conversations not deleted) holding every word of `query`, newest first. */
    async searchMessages(userId: number, query: string, limit: number): Promise<MessageSearchHit[]> {
      const matcher = messageMatcher(query, fold, deps.germanSpelling);
      if (!matcher) return [];
      const hits: MessageSearchHit[] = [];
      // The same words said twice in a conversation (a reply regenerated alike, a message sent again) are one hit: the newest.
      const seen = new Set<string>();
      for (let beforeId = Number.MAX_SAFE_INTEGER; hits.length < limit;) {
        const page = await repo.messagesPage(userId, beforeId, SEARCH_PAGE);
        for (const row of page) {
          if (hits.length === limit) break;
          if (!matcher.matches(row.content)) continue;
          const said = `${row.conversationId}\n${row.role}\n${row.content.trim()}`;
          if (seen.has(said)) continue;
          seen.add(said);
          const { id: messageId, content, ...rest } = row;
          hits.push({ ...rest, messageId, snippet: matcher.snippet(content) });
        }
        if (page.length < SEARCH_PAGE) break;
        beforeId = page.at(-1)!.id;
      }
      return hits;
    },
    /** One conversation as the API answers it: id, name and createdAt. */
    async get(userId: number, id: number) {
      const { lastMessage: _lastMessage, ...conversation } = await requireOwned(userId, id);
      return conversation;
    },

    /** True when the conversation exists and is the user's (answered from the cached list). */
    async ownsConversation(userId: number, id: number): Promise<boolean> {
      return (await list(userId)).some((item) => item.id === id);
    },

    onDeleted(listener: ConversationDeletedListener) {
      deletedListeners.push(listener);
    },

    /** Called after a deleted conversation came back (its files left unread when it was deleted are read again). */
    onRestored(listener: ConversationDeletedListener) {
      restoredListeners.push(listener);
    },

    async create(userId: number, name: string) {
      try {
        return toConversation(await repo.insert(userId, name));
      } finally {
        changed(userId);
      }
    },

    /** Renames, pins or unpins, or picks the model (one the server allows; null for the default). */
    async update(userId: number, id: number, change: UpdateConversationBody) {
      if (change.model) deps.checkModel?.(change.model);
      const conversation = await repo.update(userId, id, change).finally(() => changed(userId));
      if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
      return toConversation(conversation);
    },

    /** Deletes the conversation for the user: it leaves every list but is kept, whole, until the purge. */
    async remove(userId: number, id: number, now = new Date()) {
      const removed = await repo.softDelete(userId, id, now.toISOString()).finally(() => {
        changed(userId);
        messagesChanged(id);
      });
      if (!removed) throw notFound(CONVERSATION_NOT_FOUND);
    },

    async listDeleted(userId: number): Promise<DeletedConversation[]> {
      const rows = await repo.listDeleted(userId);
      return rows.map((row) => ({ ...row, purgeAt: purgeTime(row.deletedAt), reminderCount: Number(row.reminderCount), fileCount: Number(row.fileCount) }));
    },

    async restore(userId: number, id: number) {
      const conversation = await repo.restore(userId, id).finally(() => changed(userId));
      if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
      for (const listener of restoredListeners) await listener(userId, id).catch((error: unknown) => deps.log?.(error));
      return toConversation(conversation);
    },

    /** Deletes for good what was deleted more than DELETED_CONVERSATION_DAYS ago; answers how many. */
    async purgeDeleted(now = new Date()) {
      const purged = await repo.purgeDeletedBefore(new Date(now.getTime() - DELETED_CONVERSATION_DAYS * DAY_MS).toISOString());
      for (const { userId } of purged) changed(userId);
      // After commit: a listener that fails (an upload file left behind) never undoes the purge.
      for (const { userId, id } of purged) {
        for (const listener of deletedListeners) await listener(userId, id).catch((error: unknown) => deps.log?.(error));
      }
      return purged.length;
    },

    /** The conversation's messages, oldest first, as JSON. */
    async listMessages(userId: number, id: number): Promise<MessageListJson> {
      await requireOwned(userId, id);
      return messagesOf(id);
    },

    /** The conversation's messages, oldest first (for the assistant's history). */
    async messages(userId: number, id: number): Promise<Message[]> {
      await requireOwned(userId, id);
      return JSON.parse(await messagesOf(id)) as Message[];
    },

    appendMessages,

    /** Shows the branch the message is on (decision 045) and answers the conversation's messages as then shown. */
    async activate(userId: number, id: number, messageId: number): Promise<MessageListJson> {
      await requireOwned(userId, id);
      const done = await repo.activate(id, messageId);
      messagesChanged(id);
      if (!done) throw notFound(MESSAGE_NOT_FOUND);
      changed(userId); // the list's last message may be another one now
      return messagesOf(id);
    },

    /**
     * Where an edit or a regeneration branches off (decision 045): for an edit of the user's message, its parent
     * and the history before it; for a regenerated answer, the user message it answers and the history before that.
     */
    async branchPoint(
      userId: number,
      id: number,
      messageId: number,
      kind: "edit" | "regenerate",
    ): Promise<{ parentId: number | null; history: Message[]; user?: Message }> {
      await requireOwned(userId, id);
      const tree = await repo.messageTree(id);
      const target = tree.get(messageId);
      if (!target) throw notFound(MESSAGE_NOT_FOUND);
      if (kind === "edit") {
        if (target.role !== "user") throw badRequest("Only your own messages can be edited");
        const history = target.parentId === null ? [] : tree.pathTo(target.parentId);
        return { parentId: target.parentId, history: history.map(toMessage) };
      }
      if (target.role !== "model") throw badRequest("Only SAGE's answers can be regenerated");
      const path = tree.pathTo(target.id);
      let at = path.length - 1;
      while (at >= 0 && path[at]!.role !== "user") at--;
      if (at < 0) throw badRequest("This answer follows no message of yours to answer again");
      return { parentId: path[at]!.id, history: path.slice(0, at).map(toMessage), user: toMessage(path[at]!) };
    },

    /** Saves the message and answers the conversation's updated message list as JSON. */
    async appendMessage(userId: number, id: number, message: AppendMessageBody): Promise<MessageListJson> {
      await appendMessages(userId, id, [{ role: message.role, content: message.content }]);
      return messagesOf(id);
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
