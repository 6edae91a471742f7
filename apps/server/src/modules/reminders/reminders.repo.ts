import type { Kysely, Updateable } from "kysely";
import type { Database, RemindersTable } from "../../store/schema.ts";

const COLUMNS = ["id", "title", "description", "dueDate", "priority", "type", "status", "conversationId", "createdAt", "updatedAt"] as const;

export function createRemindersRepo(db: Kysely<Database>) {
  return {
    list: (userId: number, conversationId?: number) => {
      // A deleted conversation's reminders are kept with it (restorable, decision 035) but not listed.
      let query = db
        .selectFrom("reminders")
        .select(COLUMNS)
        .where("userId", "=", userId)
        .where((eb) =>
          eb.or([
            eb("conversationId", "is", null),
            eb("conversationId", "not in", eb.selectFrom("conversations").select("id").where("userId", "=", userId).where("deletedAt", "is not", null)),
          ]),
        );
      if (conversationId !== undefined) query = query.where("conversationId", "=", conversationId);
      return query.orderBy("dueDate").orderBy("id").execute();
    },

    find: (userId: number, id: number) => db.selectFrom("reminders").select(COLUMNS).where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    insert: (reminder: {
      userId: number;
      conversationId: number | null;
      title: string;
      description: string;
      dueDate: string;
      priority: "high" | "medium" | "low";
      type: "task" | "alert" | "reminder";
      status: string;
      createdAt: string;
    }) =>
      db
        .insertInto("reminders")
        .values({ ...reminder, updatedAt: reminder.createdAt })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),

    update: (userId: number, id: number, changes: Updateable<RemindersTable>) =>
      db.updateTable("reminders").set(changes).where("userId", "=", userId).where("id", "=", id).returning(COLUMNS).executeTakeFirst(),

    remove: async (userId: number, id: number) => {
      const result = await db.deleteFrom("reminders").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type RemindersRepo = ReturnType<typeof createRemindersRepo>;
