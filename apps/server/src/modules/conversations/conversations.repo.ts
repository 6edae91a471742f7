import type { Message } from "@sage/contracts/conversations";
import type { Store } from "../../store/open-store.ts";

const conversationColumns = ["id", "name", "createdAt"] as const;

/** SQL for conversations and their messages; every query is scoped by the owning user. */
export function createConversationsRepo(store: Pick<Store, "db" | "sqlite">) {
  const { db, sqlite } = store;
  // Messages are the hot path (every chat turn appends two): plain prepared statements, synchronous, so a
  // read never interleaves with a write of the same conversation.
  const selectMessages = sqlite.prepare<[number], Message>(
    "SELECT id, conversation_id AS conversationId, role, content, created_at AS createdAt FROM messages WHERE conversation_id = ? ORDER BY id",
  );
  // Ownership check and insert in one statement: nothing is inserted unless the conversation is the user's.
  const insertOwnedMessage = sqlite.prepare<[string, string, string, number, number], Message>(
    "INSERT INTO messages (conversation_id, role, content, created_at) SELECT id, ?, ?, ? FROM conversations WHERE id = ? AND user_id = ? " +
      "RETURNING id, conversation_id AS conversationId, role, content, created_at AS createdAt",
  );
  const touchConversation = sqlite.prepare<[string, number]>("UPDATE conversations SET updated_at = ? WHERE id = ?");
  const appendOwnedMessage = sqlite.transaction((userId: number, conversationId: number, message: { role: "user" | "model"; content: string }) => {
    const now = new Date().toISOString();
    const row = insertOwnedMessage.get(message.role, message.content, now, conversationId, userId);
    if (row) touchConversation.run(now, conversationId);
    return row ?? null;
  });

  return {
    list: (userId: number) =>
      db.selectFrom("conversations").select(conversationColumns).where("userId", "=", userId).orderBy("createdAt", "desc").orderBy("id", "desc").execute(),

    find: (userId: number, id: number) =>
      db.selectFrom("conversations").select(conversationColumns).where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    insert: (userId: number, name: string) => {
      const now = new Date().toISOString();
      return db.insertInto("conversations").values({ userId, name, createdAt: now, updatedAt: now }).returning(conversationColumns).executeTakeFirstOrThrow();
    },

    rename: (userId: number, id: number, name: string) =>
      db
        .updateTable("conversations")
        .set({ name, updatedAt: new Date().toISOString() })
        .where("userId", "=", userId)
        .where("id", "=", id)
        .returning(conversationColumns)
        .executeTakeFirst(),

    /**
     * Deletes the conversation in one transaction; messages, reminders, knowledge items, chunks and jobs go
     * with it through ON DELETE CASCADE. Returns the storage keys of the uploads to remove after commit,
     * or null when the conversation is not this user's.
     */
    remove: (userId: number, id: number) =>
      db.transaction().execute(async (trx) => {
        const owned = await trx.selectFrom("conversations").select("id").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
        if (!owned) return null;
        const items = await trx.selectFrom("knowledgeItems").select("storageKey").where("conversationId", "=", id).where("storageKey", "is not", null).execute();
        await trx.deleteFrom("conversations").where("id", "=", id).execute();
        return items.map((item) => item.storageKey!);
      }),

    listMessages: (conversationId: number): Message[] => selectMessages.all(conversationId),

    /** Appends a message to the user's conversation and returns the stored row; null when it is not theirs. */
    appendMessage: (userId: number, conversationId: number, message: { role: "user" | "model"; content: string }): Message | null =>
      appendOwnedMessage(userId, conversationId, message),
  };
}

export type ConversationsRepo = ReturnType<typeof createConversationsRepo>;
