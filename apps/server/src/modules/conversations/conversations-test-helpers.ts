import { describe, expect, it } from "vitest";
import { testDatabasesOf, type OpenTestDatabase } from "../../test/test-databases.ts";
import { conversationRows } from "./conversations.repo.ts";

const ME = 1;
const OTHER = 2;

/** Conversations themselves, the same on each engine: conversations.repo.test.ts (SQLite), conversations.integration.test.ts. */
export function conversationRowCases(engine: string, open: OpenTestDatabase) {
  describe(`conversations (${engine})`, () => {
    const databases = testDatabasesOf(open);

    async function setUp() {
      const db = await databases.withUsers(ME, OTHER);
      const rows = conversationRows(db);
      let clock = Date.parse("2026-11-28T09:00:00.000Z");
      const tick = () => new Date((clock += 60_000)).toISOString();
      const message = async (conversationId: number, content: string, branchRank: number, role: "user" | "model" = "user") =>
        (await db.insertInto("messages").values({ conversationId, role, content, createdAt: tick(), branchRank }).returning("id").executeTakeFirstOrThrow()).id;
      return { db, rows, message };
    }

    it("lists pinned first (the latest pin on top), then newest first, each with its active path's last message", async () => {
      const { rows, message } = await setUp();
      const first = await rows.insert(ME, "First");
      const second = await rows.insert(ME, "Second");
      const third = await rows.insert(ME, "Third");
      await rows.insert(OTHER, "Not mine");
      await message(first.id, "Older answer", 1);
      await message(first.id, "The branch shown last", 3);
      await message(first.id, "A branch not shown", 2);
      await rows.update(ME, first.id, { pinned: true });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await rows.update(ME, second.id, { pinned: true, name: "Second, renamed", model: "gemini-2.5-pro" });

      const listed = await rows.list(ME);
      expect(listed.map((row) => [row.name, row.pinnedAt !== null, row.lastMessage])).toEqual([
        ["Second, renamed", true, null],
        ["First", true, "The branch shown last"],
        ["Third", false, null],
      ]);
      expect(listed[0]!.model).toBe("gemini-2.5-pro");
      expect(await rows.update(OTHER, third.id, { name: "Hijack" })).toBeUndefined();
      expect(await rows.setUnread(ME, third.id, "2026-11-28T10:00:00.000Z")).toBe(true);
      expect(await rows.setUnread(OTHER, third.id, "2026-11-28T10:00:00.000Z")).toBe(false);
      expect((await rows.list(ME)).find((row) => row.id === third.id)!.unreadSince).toBe("2026-11-28T10:00:00.000Z");
    });

    it("deletes softly with what goes with it, restores, and purges for good with the messages", async () => {
      const { db, rows, message } = await setUp();
      const trip = await rows.insert(ME, "Trip");
      await message(trip.id, "Book the train", 1);
      const at = "2026-11-28T09:30:00.000Z";
      await db
        .insertInto("reminders")
        .values({
          userId: ME,
          conversationId: trip.id,
          title: "Pack",
          description: "",
          dueDate: at,
          priority: "medium",
          type: "reminder",
          status: "unread",
          createdAt: at,
          updatedAt: at,
        })
        .execute();
      for (const type of ["note", "folder"] as const)
        await db.insertInto("knowledgeItems").values({ userId: ME, conversationId: trip.id, type, name: type, createdAt: at, updatedAt: at }).execute();

      expect(await rows.softDelete(OTHER, trip.id, at)).toBe(false);
      expect(await rows.softDelete(ME, trip.id, at)).toBe(true);
      expect(await rows.softDelete(ME, trip.id, at)).toBe(false);
      expect(await rows.list(ME)).toEqual([]);
      expect((await rows.listDeleted(ME)).map((row) => [row.name, row.deletedAt, Number(row.reminderCount), Number(row.fileCount)])).toEqual([
        ["Trip", at, 1, 1],
      ]);
      expect(await rows.messagesPage(ME, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);

      expect(await rows.restore(ME, trip.id)).toMatchObject({ id: trip.id, name: "Trip" });
      expect((await rows.messagesPage(ME, Number.MAX_SAFE_INTEGER, 10)).map((row) => [row.content, row.name])).toEqual([["Book the train", "Trip"]]);

      await rows.softDelete(ME, trip.id, at);
      expect(await rows.purgeDeletedBefore("2026-11-28T09:00:00.000Z")).toEqual([]);
      expect(await rows.purgeDeletedBefore("2026-11-28T10:00:00.000Z")).toEqual([{ id: trip.id, userId: ME }]);
      expect(await db.selectFrom("messages").select("id").execute()).toEqual([]);
      expect(await rows.listDeleted(ME)).toEqual([]);
    });
  });
}
