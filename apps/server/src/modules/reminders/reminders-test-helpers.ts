import { REMINDER_ERRORS } from "@sage/contracts/reminders";
import { describe, expect, it } from "vitest";
import { testDatabasesOf, type OpenTestDatabase } from "../../test/test-databases.ts";
import { createRemindersRepo } from "./reminders.repo.ts";
import { createRemindersService } from "./reminders.service.ts";

const ME = 1;
const OTHER = 2;
const AT = "2026-11-28T09:00:00.000Z";

/** Reminders, the same on each engine: reminders.service.test.ts (SQLite), reminders.integration.test.ts. */
export function reminderCases(engine: string, open: OpenTestDatabase) {
  describe(`reminders (${engine})`, () => {
    const databases = testDatabasesOf(open);

    /** Two users, a conversation maker, and the service over them. */
    async function setUp() {
      const db = await databases.withUsers(ME, OTHER);
      const conversation = async (userId: number) =>
        (await db.insertInto("conversations").values({ userId, name: "Trip", createdAt: AT, updatedAt: AT }).returning("id").executeTakeFirstOrThrow()).id;
      let clock = Date.parse(AT);
      const service = createRemindersService({
        repo: createRemindersRepo(db),
        conversations: {
          ownsConversation: async (userId, id) =>
            (await db.selectFrom("conversations").select("id").where("id", "=", id).where("userId", "=", userId).executeTakeFirst()) !== undefined,
        },
        now: () => new Date((clock += 1_000)),
      });
      return { db, service, conversation };
    }
    const reminder = (title: string, dueDate: string, conversationId?: number) => ({
      title,
      description: "",
      dueDate,
      priority: "medium" as const,
      type: "reminder" as const,
      ...(conversationId === undefined ? {} : { conversationId }),
    });

    it("lists the user's reminders nearest first, never another user's, and not a deleted conversation's", async () => {
      const { db, service, conversation } = await setUp();
      const trip = await conversation(ME);
      const gone = await conversation(ME);
      await service.create(ME, reminder("Book trains", "2026-12-03T09:00:00.000Z", trip));
      await service.create(ME, reminder("Call Anna", "2026-12-01T09:00:00.000Z"));
      await service.create(ME, reminder("Old plan", "2026-11-30T09:00:00.000Z", gone));
      await service.create(OTHER, reminder("Someone else's", "2026-11-29T09:00:00.000Z"));
      await db.updateTable("conversations").set({ deletedAt: AT }).where("id", "=", gone).execute();

      expect((await service.list(ME)).map((item) => item.title)).toEqual(["Call Anna", "Book trains"]);
      expect((await service.list(ME, trip)).map((item) => [item.title, item.status, item.conversationId])).toEqual([["Book trains", "unread", trip]]);
      await expect(service.list(OTHER, trip)).rejects.toMatchObject({ status: 404, message: REMINDER_ERRORS.conversationNotFound });
      await expect(service.create(OTHER, reminder("Sneaky", AT, trip))).rejects.toMatchObject({ status: 404 });
    });

    it("a new due date makes a read reminder unread again; completing deletes it; another user's is not found", async () => {
      const { service } = await setUp();
      const created = await service.create(ME, reminder("Board pack", "2026-12-01T09:00:00.000Z"));
      const read = await service.update(ME, created.id, { status: "read" });
      expect(read.status).toBe("read");
      expect(read.updatedAt > created.updatedAt).toBe(true);
      const moved = await service.update(ME, created.id, { dueDate: "2026-12-02T09:00:00.000Z", status: "read" });
      expect([moved.dueDate, moved.status]).toEqual(["2026-12-02T09:00:00.000Z", "unread"]);

      await expect(service.update(OTHER, created.id, { status: "read" })).rejects.toMatchObject({ status: 404, message: REMINDER_ERRORS.reminderNotFound });
      await expect(service.complete(OTHER, created.id)).rejects.toMatchObject({ status: 404 });
      await service.complete(ME, created.id);
      expect(await service.list(ME)).toEqual([]);
      await expect(service.complete(ME, created.id)).rejects.toMatchObject({ status: 404, message: REMINDER_ERRORS.reminderNotFound });
    });
  });
}
