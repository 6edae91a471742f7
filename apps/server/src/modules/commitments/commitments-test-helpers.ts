import { describe, expect, it } from "vitest";
import { testDatabasesOf, type OpenTestDatabase } from "../../test/test-databases.ts";
import { createCommitmentsRepo, type NewCommitment } from "./commitments.repo.ts";

const ME = 1;
const OTHER = 2;
const AT = "2026-11-28T09:00:00.000Z";

/** The commitments ledger's store, the same on each engine: commitments.repo.test.ts (SQLite), commitments.integration.test.ts. */
export function commitmentsRepoCases(engine: string, open: OpenTestDatabase) {
  describe(`the commitments ledger's store (${engine})`, () => {
    const databases = testDatabasesOf(open);

    async function setUp() {
      const db = await databases.withUsers(ME, OTHER);
      return { db, repo: createCommitmentsRepo(db) };
    }
    const commitment = (what: string, dueDate: string | null, userId = ME): NewCommitment => ({
      userId,
      direction: "mine",
      kind: "promise",
      owner: "me",
      counterparty: "Anna",
      what,
      dueDate,
      quote: `I will ${what}.`,
      sourceKind: "note",
      sourceTitle: "Notes",
      createdAt: AT,
      updatedAt: AT,
    });

    it("lists dated commitments soonest first, then undated newest first, filtered, and never another user's", async () => {
      const { repo } = await setUp();
      for (const row of [
        commitment("send the deck", "2026-12-05"),
        commitment("call the bank", null),
        commitment("sign the contract", "2026-12-01"),
        commitment("book the room", null),
        commitment("someone else's", "2026-11-30", OTHER),
      ])
        await repo.insert(row);
      expect((await repo.list(ME, {})).map((row) => row.what)).toEqual(["sign the contract", "send the deck", "book the room", "call the bank"]);
      expect((await repo.list(ME, { dueBy: "2026-12-02" })).map((row) => row.what)).toEqual(["sign the contract"]);
      const [first] = await repo.list(ME, {});
      await repo.update(ME, first!.id, { status: "done" }, "2026-11-29T09:00:00.000Z");
      await repo.update(OTHER, first!.id, { status: "dismissed" }, "2026-11-29T09:00:00.000Z");
      expect((await repo.list(ME, { status: "open" })).map((row) => row.what)).toEqual(["send the deck", "book the room", "call the bank"]);
      expect(await repo.get(ME, first!.id)).toMatchObject({ status: "done", updatedAt: "2026-11-29T09:00:00.000Z" });
      expect(await repo.get(OTHER, first!.id)).toBeUndefined();
      expect(await repo.hasQuote(ME, "I will send the deck.")).toBe(true);
      expect(await repo.hasQuote(OTHER, "I will send the deck.")).toBe(false);
    });

    it("leaves a stranger's mail's commitment out of the user's own until kept, and keeps where it came from", async () => {
      const { repo } = await setUp();
      const from = JSON.stringify({ title: "the mail from attacker@evil.example of 24 Nov", fileId: 9 });
      await repo.insert(commitment("send the deck", "2026-12-05"));
      await repo.insert({ ...commitment("wire 50,000 EUR to CH00EVIL", "2026-12-01"), derivedFrom: from, kept: 0 });
      expect((await repo.list(ME, {})).map((row) => [row.what, Number(row.kept)])).toEqual([
        ["wire 50,000 EUR to CH00EVIL", 0],
        ["send the deck", 1],
      ]);
      expect((await repo.list(ME, { keptOnly: true })).map((row) => row.what)).toEqual(["send the deck"]);
      const wire = (await repo.list(ME, {}))[0]!;
      await repo.update(ME, wire.id, { kept: 1 }, "2026-11-29T09:00:00.000Z");
      expect((await repo.list(ME, { keptOnly: true })).map((row) => row.what)).toEqual(["wire 50,000 EUR to CH00EVIL", "send the deck"]);
      expect((await repo.get(ME, wire.id))?.derivedFrom).toBe(from);
    });

    it("finds the items and messages not read yet, once each, and none of a deleted conversation", async () => {
      const { db, repo } = await setUp();
      const conversation = async () =>
        (await db.insertInto("conversations").values({ userId: ME, name: "Trip", createdAt: AT, updatedAt: AT }).returning("id").executeTakeFirstOrThrow()).id;
      const live = await conversation();
      const gone = await conversation();
      const note = async (name: string, conversationId: number | null) =>
        (
          await db
            .insertInto("knowledgeItems")
            .values({ userId: ME, conversationId, type: "note", name, status: "ready", createdAt: AT, updatedAt: AT })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      const first = await note("First", null);
      const second = await note("Second", live);
      await note("In a deleted conversation", gone);
      const message = await db
        .insertInto("messages")
        .values({ conversationId: live, role: "user", content: "I will send it Friday", createdAt: AT })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("messages").values({ conversationId: live, role: "model", content: "Noted.", createdAt: AT }).execute();
      await db.updateTable("conversations").set({ deletedAt: AT }).where("id", "=", gone).execute();

      expect((await repo.newItems(ME, AT, 10)).map((item) => item.name)).toEqual(["First", "Second"]);
      expect((await repo.newMessages(ME, AT, 10)).map((row) => [row.content, row.conversationName])).toEqual([["I will send it Friday", "Trip"]]);
      expect(await repo.lastScanAt(ME)).toBeNull();
      await repo.markScanned(ME, "item", first, "2026-11-28T10:00:00.000Z");
      await repo.markScanned(ME, "item", first, "2026-11-28T10:00:00.000Z");
      await repo.markScanned(ME, "message", message.id, "2026-11-28T11:00:00.000Z");
      expect((await repo.newItems(ME, AT, 10)).map((item) => item.id)).toEqual([second]);
      expect(await repo.newMessages(ME, AT, 10)).toEqual([]);
      expect(await repo.lastScanAt(ME)).toBe("2026-11-28T11:00:00.000Z");
      expect(await repo.newItems(OTHER, AT, 10)).toEqual([]);
    });
  });
}
