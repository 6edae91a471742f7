import { expect, it } from "vitest";
import { openPostgresDb } from "../../store/postgres/open-postgres-db.ts";
import { describeOnPostgres } from "../../test/test-databases.ts";
import { conversationRowCases } from "./conversations-test-helpers.ts";
import { createConversationsRepo } from "./conversations.repo.ts";
import { createConversationsService } from "./conversations.service.ts";

describeOnPostgres("conversations on PostgreSQL", (databases) => {
  conversationRowCases("PostgreSQL", databases.open);

  it("two processes appending to one conversation at once keep every message on one path, in order", async () => {
    const database = await databases.open();
    const other = await openPostgresDb({ url: database.url! });
    try {
      await database.db.insertInto("users").values({ id: 1, username: "me", passwordHash: "x", createdAt: "x" }).execute();
      const [processA, processB] = [createConversationsRepo({ db: database.db }), createConversationsRepo({ db: other.db })];
      const { id } = await processA.insert(1, "Busy");
      // Without the conversation's row held, two appends read the same end and the path forks, losing one.
      await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 2 ? processA : processB).appendMessages(1, id, [{ role: "user", content: `Message ${index}` }])),
      );
      const shown = await processB.listMessages(id);
      expect(shown).toHaveLength(20);
      expect(shown.some((message) => message.siblings)).toBe(false);
      expect(new Set(shown.map((message) => message.content)).size).toBe(20);
    } finally {
      await other.close();
      await database.close();
    }
  });

  it("two processes' services see each other's conversations and messages at once (nothing kept in memory)", async () => {
    const database = await databases.open();
    const other = await openPostgresDb({ url: database.url! });
    try {
      await database.db.insertInto("users").values({ id: 1, username: "me", passwordHash: "x", createdAt: "x" }).execute();
      const [processA, processB] = [database.db, other.db].map((db) => createConversationsService({ repo: createConversationsRepo({ db }), shared: true }));
      expect(await processB!.list(1)).toEqual([]);
      const created = await processA!.create(1, "Board prep");
      expect(await processB!.ownsConversation(1, created.id)).toBe(true);
      await processB!.appendMessage(1, created.id, { role: "user", content: "Draft the agenda" });
      expect((await processA!.list(1)).map((item) => [item.name, item.lastMessage])).toEqual([["Board prep", "Draft the agenda"]]);
      await processA!.appendMessage(1, created.id, { role: "model", content: "Here is a draft." });
      expect((await processB!.messages(1, created.id)).map((message: { content: string }) => message.content)).toEqual([
        "Draft the agenda",
        "Here is a draft.",
      ]);
    } finally {
      await other.close();
      await database.close();
    }
  });
});
