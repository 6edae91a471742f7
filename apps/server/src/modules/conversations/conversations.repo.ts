import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

const conversationColumns = ["id", "name", "createdAt"] as const;
const messageColumns = ["id", "conversationId", "role", "content", "createdAt"] as const;

/** SQL for conversations and their messages; every query is scoped by the owning user. */
export function createConversationsRepo(db: Kysely<Database>) {
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

    listMessages: (conversationId: number) =>
      db.selectFrom("messages").select(messageColumns).where("conversationId", "=", conversationId).orderBy("id", "asc").execute(),

    insertMessage: (conversationId: number, message: { role: "user" | "model"; content: string }) =>
      db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        await trx.insertInto("messages").values({ conversationId, ...message, createdAt: now }).execute();
        await trx.updateTable("conversations").set({ updatedAt: now }).where("id", "=", conversationId).execute();
      }),
  };
}

export type ConversationsRepo = ReturnType<typeof createConversationsRepo>;
