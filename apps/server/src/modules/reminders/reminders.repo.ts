import type { Reminder } from "@sage/contracts/reminders";
import type { Kysely, Selectable, Updateable } from "kysely";
import type { Database, RemindersTable } from "../../store/schema.ts";

const COLUMNS = [
  "id",
  "title",
  "description",
  "dueDate",
  "priority",
  "type",
  "status",
  "conversationId",
  "createdAt",
  "updatedAt",
  "derivedFrom",
  "kept",
] as const;

type Row = Pick<Selectable<RemindersTable>, (typeof COLUMNS)[number]>;

/** A row as the API shows it: where it came from and whether it waits for Keep, only for one made from content. */
export function toReminder({ derivedFrom, kept, ...row }: Row): Reminder {
  if (!derivedFrom) return row;
  return { ...row, derivedFrom: JSON.parse(derivedFrom) as NonNullable<Reminder["derivedFrom"]>, kept: Number(kept) === 1 };
}

export function createRemindersRepo(db: Kysely<Database>) {
  return {
    list: async (userId: number, conversationId?: number) => {
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
      return (await query.orderBy("dueDate").orderBy("id").execute()).map(toReminder);
    },

    find: async (userId: number, id: number) => {
      const row = await db.selectFrom("reminders").select(COLUMNS).where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return row && toReminder(row);
    },

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
      derivedFrom?: string | null;
      kept?: number;
    }) =>
      db
        .insertInto("reminders")
        .values({ ...reminder, updatedAt: reminder.createdAt })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow()
        .then(toReminder),

    update: async (userId: number, id: number, changes: Updateable<RemindersTable>) => {
      const row = await db.updateTable("reminders").set(changes).where("userId", "=", userId).where("id", "=", id).returning(COLUMNS).executeTakeFirst();
      return row && toReminder(row);
    },

    remove: async (userId: number, id: number) => {
      const result = await db.deleteFrom("reminders").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type RemindersRepo = ReturnType<typeof createRemindersRepo>;
