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

/** The active path, first message first; a message with other branches lists them all (`siblings`). */
function activeMessages(rows: readonly MessageRow[]): Message[] {
  const tree = messageTree(rows);
  return tree.activePath().map((row) => {
    const siblings = tree.siblingsOf(row.id);
    return siblings.length > 1 ? { ...toMessage(row), siblings: siblings.map((sibling) => sibling.id) } : toMessage(row);
  });
}

type Leaf = { id: number; branchRank: number } | undefined;
/** Whether an append's first message goes elsewhere than the active path's end (an edit, a regenerated answer). */
const branchesOff = (messages: readonly NewMessage[], leaf: Leaf) => messages[0]?.parentId !== undefined && messages[0].parentId !== (leaf?.id ?? null);
/** A new message's parent (the path's end unless it says) and its rank (above every other: shown last). */
const placeAfter = (message: NewMessage, leaf: Leaf) => ({
  parentId: message.parentId !== undefined ? message.parentId : (leaf?.id ?? null),
  branchRank: (leaf?.branchRank ?? 0) + 1,
});

/**
 * A conversation's messages, answered alike on both engines. Reads and writes are scoped to the conversation; the
 * caller checked whose it is, except `appendMessages`, which stores nothing unless the conversation is the user's.
 */
export interface MessageRows {
  /** The active path, first message first, with each branching message's `siblings`. */
  listMessages(conversationId: number): Promise<Message[]>;
  /** Every message, branches included, as a tree. */
  messageTree(conversationId: number): Promise<ReturnType<typeof messageTree<MessageRow>>>;
  /** Makes the message's branch the active path (it and the branch below it shown last); false when not there. */
  activate(conversationId: number, messageId: number): Promise<boolean>;
  /**
   * Appends messages in one transaction and answers the stored rows (`branched` when the first went elsewhere than
   * the active path's end); null when the conversation is not the user's (then nothing is stored).
   */
  appendMessages(userId: number, conversationId: number, messages: readonly NewMessage[]): Promise<{ rows: Message[]; branched: boolean } | null>;
  nameOf(conversationId: number): Promise<string | undefined>;
  firstUserMessage(conversationId: number): Promise<string | undefined>;
  /** Renames the conversation only if its name is still `defaultName`; true when it did. */
  renameFromDefault(conversationId: number, name: string, defaultName: string): Promise<boolean>;
}

/**
 * SQLite's messages: prepared once and run in synchronous transactions, the hot path (every turn appends two). Each
 * method does its work when called, before it answers: a stopped turn's answer is stored at once, before anything
 * else can reach the conversation.
 */
function sqliteMessageRows(store: Pick<Store, "db" | "prepare" | "transaction">): MessageRows {
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
    nameOf: async (conversationId: number) => nameOf.get(conversationId)?.name,
    firstUserMessage: async (conversationId: number) => firstUserMessage.get(conversationId)?.content,
    renameFromDefault: async (conversationId: number, name: string, defaultName: string) =>
      renameFromDefault.run(name, conversationId, defaultName).changes > 0,

    listMessages: async (conversationId: number) => activeMessages(selectMessages.all(conversationId)),
    messageTree: async (conversationId: number) => messageTree(selectMessages.all(conversationId)),
    activate: async (conversationId: number, messageId: number) =>
      store.transaction(() => {
        const tree = messageTree(selectMessages.all(conversationId));
        if (!tree.get(messageId)) return false;
        let rank = tree.topRank();
        for (const node of tree.descent(messageId)) setRank.run(++rank, node.id);
        return true;
      }),
    appendMessages: async (userId: number, conversationId: number, messages: readonly NewMessage[]) =>
      store.transaction(() => {
        const now = new Date().toISOString();
        const rows: Message[] = [];
        let leaf = selectLeaf.get(conversationId);
        const branched = branchesOff(messages, leaf);
        for (const message of messages) {
          const { parentId, branchRank } = placeAfter(message, leaf);
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

/** PostgreSQL's messages (Kysely): an append or a branch switch holds the conversation's row until it commits. */
function kyselyMessageRows(db: Kysely<Database>): MessageRows {
  const rowsOf = (trx: Kysely<Database>, conversationId: number) =>
    trx.selectFrom("messages").select(messageColumns).where("conversationId", "=", conversationId).orderBy("id").execute();
  return {
    listMessages: async (conversationId) => activeMessages(await rowsOf(db, conversationId)),
    messageTree: async (conversationId) => messageTree(await rowsOf(db, conversationId)),
    activate: (conversationId, messageId) =>
      db.transaction().execute(async (trx) => {
        await trx.selectFrom("conversations").select("id").where("id", "=", conversationId).forUpdate().execute();
        const tree = messageTree(await rowsOf(trx, conversationId));
        if (!tree.get(messageId)) return false;
        let rank = tree.topRank();
        for (const node of tree.descent(messageId)) await trx.updateTable("messages").set({ branchRank: ++rank }).where("id", "=", node.id).execute();
        return true;
      }),
    appendMessages: (userId, conversationId, messages) =>
      db.transaction().execute(async (trx) => {
        // Appends to one conversation, from any process, one after the other: ranks stay in order.
        const owned = await trx
          .selectFrom("conversations")
          .select("id")
          .where("id", "=", conversationId)
          .where("userId", "=", userId)
          .where("deletedAt", "is", null)
          .forUpdate()
          .executeTakeFirst();
        if (!owned) return null;
        const now = new Date().toISOString();
        let leaf: Leaf = await trx
          .selectFrom("messages")
          .select(["id", "branchRank"])
          .where("conversationId", "=", conversationId)
          .orderBy("branchRank", "desc")
          .limit(1)
          .executeTakeFirst();
        const branched = branchesOff(messages, leaf);
        const rows: Message[] = [];
        for (const message of messages) {
          const { parentId, branchRank } = placeAfter(message, leaf);
          const row = await trx
            .insertInto("messages")
            .values({
              conversationId,
              role: message.role,
              content: message.content,
              createdAt: now,
              citations: toJsonColumn(message.citations),
              toolCalls: toJsonColumn(message.toolCalls),
              context: toJsonColumn(message.context),
              attachments: toJsonColumn(message.attachments),
              parentId,
              branchRank,
            })
            .returning(messageColumns)
            .executeTakeFirstOrThrow();
          leaf = { id: row.id, branchRank };
          rows.push(toMessage(row));
        }
        if (rows.length > 0) await trx.updateTable("conversations").set({ updatedAt: now }).where("id", "=", conversationId).execute();
        return { rows, branched };
      }),
    nameOf: async (conversationId) => (await db.selectFrom("conversations").select("name").where("id", "=", conversationId).executeTakeFirst())?.name,
    firstUserMessage: async (conversationId) =>
      (
        await db
          .selectFrom("messages")
          .select("content")
          .where("conversationId", "=", conversationId)
          .where("role", "=", "user")
          .orderBy("id")
          .limit(1)
          .executeTakeFirst()
      )?.content,
    renameFromDefault: async (conversationId, name, defaultName) =>
      Number(
        (await db.updateTable("conversations").set({ name }).where("id", "=", conversationId).where("name", "=", defaultName).executeTakeFirst())
          .numUpdatedRows,
      ) > 0,
  };
}

/**
 * SQL for conversations and their messages; every query is scoped by the owning user. On SQLite (a store with
 * prepared statements) messages use SQLite's synchronous statements, elsewhere Kysely alone.
 */
export function createConversationsRepo(store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>) {
  const messages = store.prepare && store.transaction ? sqliteMessageRows(store as Pick<Store, "db" | "prepare" | "transaction">) : kyselyMessageRows(store.db);
  return { ...conversationRows(store.db), ...messages };
}

export type ConversationsRepo = ReturnType<typeof createConversationsRepo>;
