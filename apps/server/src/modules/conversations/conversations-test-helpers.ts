import { describe, expect, it } from "vitest";
import { testDatabasesOf, type OpenTestDatabase } from "../../test/test-databases.ts";
import { DEFAULT_CONVERSATION_NAME } from "@sage/contracts/conversations";
import { conversationRows, createConversationsRepo } from "./conversations.repo.ts";

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

    /** The whole repository as the app builds it on this engine, over a fresh database with two users. */
    async function repository() {
      const database = await databases.databaseWithUsers(ME, OTHER);
      return { db: database.db, repo: createConversationsRepo({ db: database.db, ...database.sqlite }) };
    }
    const contents = (messages: readonly { content: string }[]) => messages.map((message) => message.content);

    it("appends messages in order on the active path, and renames a conversation only while it has its default name", async () => {
      const { repo } = await repository();
      const { id } = await repo.insert(ME, DEFAULT_CONVERSATION_NAME);
      const first = await repo.appendMessages(ME, id, [{ role: "user", content: "Plan the Lisbon trip", citations: [] }]);
      expect(first).toMatchObject({ branched: false, rows: [{ role: "user", content: "Plan the Lisbon trip", conversationId: id }] });
      expect(first!.rows[0]!.citations).toBeUndefined();
      const answer = await repo.appendMessages(ME, id, [
        { role: "model", content: "Here is a plan.", toolCalls: [{ id: "c1", name: "searchDocuments", args: {}, result: { success: true } }] },
        { role: "model", content: "And a packing list." },
      ]);
      expect(answer!.rows.map((row) => row.toolCalls?.map((call) => call.name))).toEqual([["searchDocuments"], undefined]);
      expect(contents(await repo.listMessages(id))).toEqual(["Plan the Lisbon trip", "Here is a plan.", "And a packing list."]);
      expect(await repo.firstUserMessage(id)).toBe("Plan the Lisbon trip");

      expect(await repo.renameFromDefault(id, "Lisbon trip", DEFAULT_CONVERSATION_NAME)).toBe(true);
      expect(await repo.renameFromDefault(id, "Another title", DEFAULT_CONVERSATION_NAME)).toBe(false);
      expect(await repo.nameOf(id)).toBe("Lisbon trip");
    });

    it("an edit branches off: the new branch is shown with its siblings, and activating the old one shows it again", async () => {
      const { repo } = await repository();
      const { id } = await repo.insert(ME, "Budget");
      const [question] = (await repo.appendMessages(ME, id, [{ role: "user", content: "What is the travel budget?" }]))!.rows;
      await repo.appendMessages(ME, id, [{ role: "model", content: "12,000 euros." }]);
      const edit = await repo.appendMessages(ME, id, [{ role: "user", content: "What is the hotel budget?", parentId: null }]);
      expect(edit!.branched).toBe(true);
      await repo.appendMessages(ME, id, [{ role: "model", content: "4,000 euros.", parentId: edit!.rows[0]!.id }]);

      const shown = await repo.listMessages(id);
      expect(contents(shown)).toEqual(["What is the hotel budget?", "4,000 euros."]);
      expect(shown[0]!.siblings).toEqual([question!.id, edit!.rows[0]!.id]);
      expect((await repo.messageTree(id)).pathTo(question!.id).map((row) => row.content)).toEqual(["What is the travel budget?"]);

      expect(await repo.activate(id, question!.id)).toBe(true);
      expect(contents(await repo.listMessages(id))).toEqual(["What is the travel budget?", "12,000 euros."]);
      expect(await repo.activate(id, 987_654)).toBe(false);
      // A new message goes on after the path now shown.
      await repo.appendMessages(ME, id, [{ role: "user", content: "And per day?" }]);
      expect(contents(await repo.listMessages(id))).toEqual(["What is the travel budget?", "12,000 euros.", "And per day?"]);
    });

    it("stores nothing in another user's conversation or a deleted one", async () => {
      const { db, repo } = await repository();
      const { id } = await repo.insert(ME, "Private");
      expect(await repo.appendMessages(OTHER, id, [{ role: "user", content: "Sneaking in" }])).toBeNull();
      await repo.softDelete(ME, id, "2026-11-28T09:00:00.000Z");
      expect(await repo.appendMessages(ME, id, [{ role: "user", content: "Too late" }])).toBeNull();
      expect(await db.selectFrom("messages").select("id").execute()).toEqual([]);
    });
  });
}
