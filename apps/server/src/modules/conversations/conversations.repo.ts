import type { Citation, Message, MessageAttachment, MessageRole, ToolCallRecord } from "@sage/contracts/conversations";
import type { Store } from "../../store/open-store.ts";
import type { Kysely } from "kysely";
import type { Database, MessageRow } from "../../store/schema.ts";
import { messageTree } from "./message-tree.ts";

const conversationColumns = ["id", "name", "createdAt", "pinnedAt", "model"] as const;

/** A stored conversation as the API answers it: `pinned` and `model` only when set. */
export function toConversation<T extends { id: number; name: string; createdAt: string; pinnedAt: string | null; model: string | null }>(row: T) {
  const { pinnedAt, model, ...rest } = row;
  return { ...rest, ...(pinnedAt ? { pinned: true as const } : {}), ...(model ? { model } : {}) };
}
const messageColumns = [
  "id",
  "conversationId",
  "role",
  "content",
  "createdAt",
  "citations",
  "toolCalls",
  "context",
  "attachments",
  "parentId",
  "branchRank",
] as const;

/** A message to save; the turn's details are optional and stored only when not empty. */
export interface NewMessage {
  role: MessageRole;
  content: string;
  citations?: Citation[];
  toolCalls?: ToolCallRecord[];
  context?: Citation[];
  attachments?: MessageAttachment[];
  /**
   * The message it follows: undefined for the end of the active path (a new message in the conversation); another
   * message (or null, the first message) makes it a new branch there (an edit, a regenerated answer).
   */
  parentId?: number | null;
}

const toJsonColumn = (items: readonly unknown[] | undefined) => (items?.length ? JSON.stringify(items) : null);

/** A stored row as the API answers it: the JSON details parsed, and absent when there are none. */
export function toMessage(row: MessageRow): Message {
  const message: Message = { id: row.id, conversationId: row.conversationId, role: row.role, content: row.content, createdAt: row.createdAt };
  if (row.citations) message.citations = JSON.parse(row.citations) as Citation[];
  if (row.toolCalls) message.toolCalls = JSON.parse(row.toolCalls) as ToolCallRecord[];
  if (row.context) message.context = JSON.parse(row.context) as Citation[];
  if (row.attachments) message.attachments = JSON.parse(row.attachments) as MessageAttachment[];
  return message;
}

/**
 * Conversations themselves, on either engine (Kysely; decision 058): listing, renaming, pinning, deleting and
 * restoring, and the pages message search reads. Every query is scoped by the owning user.
 */
export function conversationRows(db: Kysely<Database>) {
  return {
    /** Marks the conversation unread (a scheduled run wrote into it) or read (the user opened it); false when not the user's. */
    async setUnread(userId: number, id: number, since: string | null) {
      const result = await db
        .updateTable("conversations")
        .set({ unreadSince: since })
        .where("id", "=", id)
        .where("userId", "=", userId)
        .where("deletedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    list: (userId: number) =>
      db
        .selectFrom("conversations as c")
        .select(["c.id", "c.name", "c.createdAt", "c.pinnedAt", "c.model", "c.unreadSince"])
        // The active path's last message (messages_conversation_rank index: one step back from the end).
        .select((eb) =>
          eb
            .selectFrom("messages as m")
            .select("m.content")
            .whereRef("m.conversationId", "=", "c.id")
            .orderBy("m.branchRank", "desc")
            .limit(1)
            .as("lastMessage"),
        )
        .where("c.userId", "=", userId)
        .where("c.deletedAt", "is", null)
        // Pinned first, the latest pin on top; then newest first.
        .orderBy((eb) => eb.case().when("c.pinnedAt", "is", null).then(1).else(0).end())
        .orderBy("c.pinnedAt", "desc")
        .orderBy("c.createdAt", "desc")
        .orderBy("c.id", "desc")
        .execute(),

    /** The user's deleted conversations (most recently deleted first), with what would be restored with each. */
    listDeleted: (userId: number) =>
      db
        .selectFrom("conversations as c")
        .select((eb) => [
          "c.id",
          "c.name",
          "c.createdAt",
          eb.ref("c.deletedAt").$notNull().as("deletedAt"),
          eb
            .selectFrom("reminders as r")
            .select((inner) => inner.fn.countAll<number>().as("n"))
            .whereRef("r.conversationId", "=", "c.id")
            .as("reminderCount"),
          eb
            .selectFrom("knowledgeItems as k")
            .select((inner) => inner.fn.countAll<number>().as("n"))
            .whereRef("k.conversationId", "=", "c.id")
            .where("k.type", "!=", "folder")
            .as("fileCount"),
        ])
        .where("c.userId", "=", userId)
        .where("c.deletedAt", "is not", null)
        .orderBy("c.deletedAt", "desc")
        .orderBy("c.id", "desc")
        .execute(),

    insert: (userId: number, name: string) => {
      const now = new Date().toISOString();
      return db.insertInto("conversations").values({ userId, name, createdAt: now, updatedAt: now }).returning(conversationColumns).executeTakeFirstOrThrow();
    },

    /** Renames, pins or unpins, or sets the model (null: the default); undefined when there is no such live conversation. */
    update: (userId: number, id: number, change: { name?: string; pinned?: boolean; model?: string | null }) =>
      db
        .updateTable("conversations")
        .set({
          updatedAt: new Date().toISOString(),
          ...(change.name === undefined ? {} : { name: change.name }),
          ...(change.pinned === undefined ? {} : { pinnedAt: change.pinned ? new Date().toISOString() : null }),
          ...(change.model === undefined ? {} : { model: change.model }),
        })
        .where("userId", "=", userId)
        .where("id", "=", id)
        .where("deletedAt", "is", null)
        .returning(conversationColumns)
        .executeTakeFirst(),

    /** Marks the user's live conversation deleted (everything in it is kept until the purge); false when there is none. */
    softDelete: async (userId: number, id: number, at: string) => {
      const result = await db
        .updateTable("conversations")
        .set({ deletedAt: at })
        .where("userId", "=", userId)
        .where("id", "=", id)
        .where("deletedAt", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Brings a deleted conversation back; false when the user has no such deleted conversation. */
    restore: (userId: number, id: number) =>
      db
        .updateTable("conversations")
        .set({ deletedAt: null })
        .where("userId", "=", userId)
        .where("id", "=", id)
        .where("deletedAt", "is not", null)
        .returning(conversationColumns)
        .executeTakeFirst(),

    /**
     * Deletes for good the conversations deleted before `before`; their messages, reminders, knowledge items,
     * chunks and jobs go with them through ON DELETE CASCADE. Answers whose they were.
     */
    purgeDeletedBefore: (before: string) =>
      db.deleteFrom("conversations").where("deletedAt", "is not", null).where("deletedAt", "<", before).returning(["id", "userId"]).execute(),

    /** The user's messages in live conversations, newest first, a page at a time (message search scans them). */
    messagesPage: (userId: number, beforeId: number, limit: number) =>
      db
        .selectFrom("messages as m")
        .innerJoin("conversations as c", "c.id", "m.conversationId")
        .select(["m.id", "m.conversationId", "m.role", "m.content", "m.createdAt", "c.name"])
        .where("c.userId", "=", userId)
        .where("c.deletedAt", "is", null)
        .where("m.id", "<", beforeId)
        .orderBy("m.id", "desc")
        .limit(limit)
        .execute(),
  };
}

/** SQL for conversations and their messages; every query is scoped by the owning user. */
export function createConversationsRepo(store: Pick<Store, "db" | "prepare" | "transaction">) {
  const { db } = store;
  // Messages are the hot path (every chat turn appends two): prepared once and run synchronously, so a read
  // never interleaves with a write of the same conversation.
  const selectMessages = store.prepare<MessageRow>((argument) =>
    db.selectFrom("messages").select(messageColumns).where("conversationId", "=", argument<number>(0)).orderBy("id"),
  );
  // Ownership check and insert in one statement: nothing is inserted unless the conversation is the user's.
  const insertOwnedMessage = store.prepare<MessageRow>((argument) =>
    db
      .insertInto("messages")
      .columns(["conversationId", "role", "content", "createdAt", "citations", "toolCalls", "context", "attachments", "parentId", "branchRank"])
      .expression((eb) =>
        eb
          .selectFrom("conversations")
          .select((inner) => [
            "id",
            inner.val(argument<string>(0)).as("role"),
            inner.val(argument<string>(1)).as("content"),
            inner.val(argument<string>(2)).as("createdAt"),
            inner.val(argument<string | null>(3)).as("citations"),
            inner.val(argument<string | null>(4)).as("toolCalls"),
            inner.val(argument<string | null>(5)).as("context"),
            inner.val(argument<string | null>(6)).as("attachments"),
            inner.val(argument<number | null>(7)).as("parentId"),
            inner.val(argument<number>(8)).as("branchRank"),
          ])
          .where("id", "=", argument<number>(9))
          .where("userId", "=", argument<number>(10))
          .where("deletedAt", "is", null),
      )
      .returning(messageColumns),
  );
  // The active path's end: the highest rank (messages_conversation_rank index).
  const selectLeaf = store.prepare<{ id: number; branchRank: number }>((argument) =>
    db.selectFrom("messages").select(["id", "branchRank"]).where("conversationId", "=", argument<number>(0)).orderBy("branchRank", "desc").limit(1),
  );
  const setRank = store.prepare((argument) =>
    db
      .updateTable("messages")
      .set({ branchRank: argument<number>(0) })
      .where("id", "=", argument<number>(1)),
  );
  const nameOf = store.prepare<{ name: string }>((argument) => db.selectFrom("conversations").select("name").where("id", "=", argument<number>(0)));
  const firstUserMessage = store.prepare<{ content: string }>((argument) =>
    db.selectFrom("messages").select("content").where("conversationId", "=", argument<number>(0)).where("role", "=", "user").orderBy("id").limit(1),
  );
  // Only while the name is still the given default: a name the user chose is never overwritten.
  const renameFromDefault = store.prepare((argument) =>
    db
      .updateTable("conversations")
      .set({ name: argument<string>(0) })
      .where("id", "=", argument<number>(1))
      .where("name", "=", argument<string>(2)),
  );
  const touchConversation = store.prepare((argument) =>
    db
      .updateTable("conversations")
      .set({ updatedAt: argument<string>(0) })
      .where("id", "=", argument<number>(1)),
  );

  return {
    ...conversationRows(db),

    /** The conversation's name (synchronous: called right after messages are appended). */
    nameOf: (conversationId: number): string | undefined => nameOf.get(conversationId)?.name,
    firstUserMessage: (conversationId: number): string | undefined => firstUserMessage.get(conversationId)?.content,
    /** Renames the conversation only if its name is still `defaultName`; true when it did. */
    renameFromDefault: (conversationId: number, name: string, defaultName: string): boolean =>
      renameFromDefault.run(name, conversationId, defaultName).changes > 0,

    /** The active path, first message first; a message with other branches lists them all (`siblings`). */
    listMessages: (conversationId: number): Message[] => {
      const tree = messageTree(selectMessages.all(conversationId));
      return tree.activePath().map((row) => {
        const siblings = tree.siblingsOf(row.id);
        return siblings.length > 1 ? { ...toMessage(row), siblings: siblings.map((sibling) => sibling.id) } : toMessage(row);
      });
    },
    /** Every message of the conversation, branches included, as a tree (the caller checked whose it is). */
    messageTree: (conversationId: number) => messageTree(selectMessages.all(conversationId)),
    /**
     * Shows the branch the message is on: it and the branch below it shown last become the active path. False when
     * the message is not in the conversation.
     */
    activate: (conversationId: number, messageId: number): boolean =>
      store.transaction(() => {
        const tree = messageTree(selectMessages.all(conversationId));
        if (!tree.get(messageId)) return false;
        let rank = tree.topRank();
        for (const node of tree.descent(messageId)) setRank.run(++rank, node.id);
        return true;
      }),
    /**
     * Appends messages to the user's conversation in one transaction and returns the stored rows (`branched` when
     * the first went elsewhere than the active path's end); null when the conversation is not theirs (then nothing
     * is stored).
     */
    appendMessages: (userId: number, conversationId: number, messages: readonly NewMessage[]): { rows: Message[]; branched: boolean } | null =>
      store.transaction(() => {
        const now = new Date().toISOString();
        const rows: Message[] = [];
        let leaf = selectLeaf.get(conversationId);
        const first = messages[0]?.parentId;
        const branched = first !== undefined && first !== (leaf?.id ?? null);
        for (const message of messages) {
          const parentId = message.parentId !== undefined ? message.parentId : (leaf?.id ?? null);
          const branchRank = (leaf?.branchRank ?? 0) + 1;
          const row = insertOwnedMessage.get(
            message.role,
            message.content,
            now,
            toJsonColumn(message.citations),
            toJsonColumn(message.toolCalls),
            toJsonColumn(message.context),
            toJsonColumn(message.attachments),
            parentId,
            branchRank,
            conversationId,
            userId,
          );
          if (!row) return null;
          leaf = { id: row.id, branchRank };
          rows.push(toMessage(row));
        }
        if (rows.length > 0) touchConversation.run(now, conversationId);
        return { rows, branched };
      }),
  };
}

export type ConversationsRepo = ReturnType<typeof createConversationsRepo>;
