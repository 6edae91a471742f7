import type { Message } from "@sage/contracts/conversations";
import type { Store } from "../../store/open-store.ts";

const conversationColumns = ["id", "name", "createdAt"] as const;
const messageColumns = ["id", "conversationId", "role", "content", "createdAt"] as const;

/** SQL for conversations and their messages; every query is scoped by the owning user. */
export function createConversationsRepo(store: Pick<Store, "db" | "prepare" | "transaction">) {
  const { db } = store;
  // Messages are the hot path (every chat turn appends two): prepared once and run synchronously, so a read
  // never interleaves with a write of the same conversation.
  const selectMessages = store.prepare<Message>((argument) =>
    db.selectFrom("messages").select(messageColumns).where("conversationId", "=", argument<number>(0)).orderBy("id"),
  );
  // Ownership check and insert in one statement: nothing is inserted unless the conversation is the user's.
  const insertOwnedMessage = store.prepare<Message>((argument) =>
    db
      .insertInto("messages")
      .columns(["conversationId", "role", "content", "createdAt"])
      .expression((eb) =>
        eb
          .selectFrom("conversations")
          .select((inner) => [
            "id",
            inner.val(argument<string>(0)).as("role"),
            inner.val(argument<string>(1)).as("content"),
            inner.val(argument<string>(2)).as("createdAt"),
          ])
          .where("id", "=", argument<number>(3))
          .where("userId", "=", argument<number>(4)),
      )
      .returning(messageColumns),
  );
  const touchConversation = store.prepare((argument) =>
    db.updateTable("conversations").set({ updatedAt: argument<string>(0) }).where("id", "=", argument<number>(1)),
  );

  return {
    list: (userId: number) =>
      db.selectFrom("conversations").select(conversationColumns).where("userId", "=", userId).orderBy("createdAt", "desc").orderBy("id", "desc").execute(),

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
     * Deletes the user's conversation; its messages, reminders, knowledge items, chunks and jobs go with it
     * through ON DELETE CASCADE. False when the conversation is not this user's.
     */
    remove: async (userId: number, id: number) => {
      const result = await db.deleteFrom("conversations").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    listMessages: (conversationId: number): Message[] => selectMessages.all(conversationId),

    /** Appends a message to the user's conversation and returns the stored row; null when it is not theirs. */
    appendMessage: (userId: number, conversationId: number, message: { role: "user" | "model"; content: string }): Message | null =>
      store.transaction(() => {
        const now = new Date().toISOString();
        const row = insertOwnedMessage.get(message.role, message.content, now, conversationId, userId);
        if (row) touchConversation.run(now, conversationId);
        return row ?? null;
      }),
  };
}

export type ConversationsRepo = ReturnType<typeof createConversationsRepo>;
