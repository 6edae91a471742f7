import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../../store/schema.ts";
import { testDatabasesOf, type OpenTestDatabase } from "../../test/test-databases.ts";
import { createMemoryBackupRows, createMemoryRepo } from "./memory.repo.ts";
import type { SemanticPort } from "../retrieval/retrieval.module.ts";
import { createMemoryService } from "./memory.service.ts";

// A tiny embedder that knows which words mean the same thing: each vector counts the words of four topics.
const TOPICS = [
  ["calendar", "diary", "schedule", "appointments"],
  ["flight", "flights", "travel", "trip", "hotel"],
  ["email", "emails", "mail", "letters"],
  ["filler", "nothing", "particular"],
];
const embed = (text: string) =>
  TOPICS.map(
    (words) =>
      text
        .toLowerCase()
        .split(/\W+/)
        .filter((word) => words.includes(word)).length,
  );
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

function fakeSemantics(options: { fail?: boolean } = {}) {
  const embedded: string[] = [];
  const semantic: SemanticPort = {
    embedderId: "topics:4",
    async embedDocuments(texts) {
      if (options.fail) throw new Error("embedder unavailable");
      embedded.push(...texts);
      return texts.map(embed);
    },
    async closeness(query, vectors) {
      if (options.fail) throw new Error("embedder unavailable");
      return vectors.map((vector) => cosine(embed(query), vector));
    },
    fuse: (lexical, vector) => 1 - (1 - lexical) * (1 - vector),
  };
  return { semantic, embedded };
}

/** The diary fact first (oldest), then enough filler to pass the 2,000-character budget. */
async function diaryAndFiller(service: ReturnType<typeof createMemoryService>) {
  const { memory: diary } = await service.create(1, "Dana keeps the diary and decides each week what gets time", { source: "user" });
  for (let i = 0; i < 45; i++) await service.create(1, `Filler fact ${i} about nothing in particular, kept to pass the budget`, { source: "user" });
  return diary;
}

const countVectors = async (db: Kysely<Database>) =>
  Number(
    (
      await db
        .selectFrom("memoryVectors")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Memories over the budget, the same on each engine: memory.service.test.ts (SQLite), memory.integration.test.ts. */
export function memoryCases(engine: string, open: OpenTestDatabase) {
  describe(`choosing memories over the budget (${engine})`, () => {
    const databases = testDatabasesOf(open);
    /** A fresh database with one user (id 1). */
    const databaseWithUser = () => databases.withUsers(1);

    it("finds a memory by meaning when it shares no word with the message (the vector half), where words alone drop it", async () => {
      const db = await databaseWithUser();
      const repo = createMemoryRepo(db);
      const wordsOnly = createMemoryService({ repo });
      const diary = await diaryAndFiller(wordsOnly);
      const question = "Who handles my calendar?";
      expect((await wordsOnly.forTurn(1, question)).memories).not.toContainEqual(diary);

      const { semantic } = fakeSemantics();
      const hybrid = createMemoryService({ repo, semantic });
      const chosen = (await hybrid.forTurn(1, question)).memories;
      expect(chosen).toContainEqual(diary);
      expect(chosen.reduce((sum, memory) => sum + memory.content.length + 3, 0)).toBeLessThanOrEqual(2000);
    });

    it("embeds memories saved before the embedder once, on the first turn that needs them, and keeps the vectors", async () => {
      const db = await databaseWithUser();
      const repo = createMemoryRepo(db);
      await diaryAndFiller(createMemoryService({ repo }));
      const { semantic, embedded } = fakeSemantics();
      const service = createMemoryService({ repo, semantic });
      await service.forTurn(1, "Book my flight");
      expect(embedded).toHaveLength(46);
      expect(await countVectors(db)).toBe(46);
      await service.forTurn(1, "Answer my emails");
      expect(embedded).toHaveLength(46);
    });

    it("embeds a memory when it is saved or edited, and an edit drops the old words' vector", async () => {
      const db = await databaseWithUser();
      const repo = createMemoryRepo(db);
      const { semantic, embedded } = fakeSemantics();
      const service = createMemoryService({ repo, semantic });
      const { memory } = await service.create(1, "I prefer morning flights", { source: "user" });
      await expect.poll(() => countVectors(db)).toBe(1);
      await service.update(1, memory.id, "Keep my diary free on Fridays");
      await expect.poll(() => embedded).toEqual(["I prefer morning flights", "Keep my diary free on Fridays"]);
      await expect.poll(async () => [...(await repo.vectors(1, "topics:4")).get(memory.id)!]).toEqual(embed("Keep my diary free on Fridays"));
    });

    it("keeps no vector made from words a memory no longer has (an edit that lands while embedding wins)", async () => {
      const db = await databaseWithUser();
      const repo = createMemoryRepo(db);
      const { memory } = await createMemoryService({ repo }).create(1, "Old words", { source: "user" });
      await repo.update(1, memory.id, "New words", new Date().toISOString());
      await repo.saveVectors("topics:4", [{ memoryId: memory.id, content: "Old words", vector: [1, 0, 0, 0] }]);
      expect(await countVectors(db)).toBe(0);
    });

    it("chooses by words alone when the embedder fails, and the turn still gets its memories", async () => {
      const db = await databaseWithUser();
      const repo = createMemoryRepo(db);
      await diaryAndFiller(createMemoryService({ repo }));
      await createMemoryService({ repo }).create(1, "Travel: aisle seats on every flight", { source: "user" });
      const service = createMemoryService({ repo, semantic: fakeSemantics({ fail: true }).semantic, warn: () => undefined });
      const { enabled, memories } = await service.forTurn(1, "Which seats on my flight?");
      expect(enabled).toBe(true);
      expect(memories.map((memory) => memory.content)).toContain("Travel: aisle seats on every flight");
      expect(memories.length).toBeGreaterThan(20);
    });

    it("a backup reads memories out a page at a time; a restore empties them a batch at a time and writes them back flagged if secret", async () => {
      const db = await databases.withUsers(1, 2);
      const service = createMemoryService({ repo: createMemoryRepo(db) });
      for (const content of ["Prefers aisle seats", "Board meets on Tuesdays", "Assistant is Maria"]) await service.create(1, content, { source: "user" });
      await service.create(2, "Not mine", { source: "user" });
      // Kept from a mail's red card: the backup carries where it came from (issue 47).
      const from = { title: "the mail from bob@partner.example of 3 Dec", fileId: 7, messageId: 2 };
      await service.create(1, "Invoices go to the Zurich office", { source: "assistant", derivedFrom: from });
      const rows = createMemoryBackupRows(db);
      expect(await rows.count(1)).toBe(4);
      const first = await rows.exportPage(1, 0, 2);
      const exported = [...first, ...(await rows.exportPage(1, first[1]!.id, 2))];
      expect(exported.map((row) => row.content)).toEqual([
        "Prefers aisle seats",
        "Board meets on Tuesdays",
        "Assistant is Maria",
        "Invoices go to the Zurich office",
      ]);
      expect(exported.map((row) => ("derivedFrom" in row ? row.derivedFrom : null))).toEqual([null, null, null, { title: from.title }]);

      const steps: number[] = [];
      for (let step = await rows.deleteStep(1, 2); step > 0; step = await rows.deleteStep(1, 2)) steps.push(step);
      expect(steps).toEqual([2, 2]);
      expect(await rows.count(2)).toBe(1);
      // A backup from before secrets were refused may carry one: it comes back flagged.
      await rows.insertRestored(1, [...exported, { ...exported[0]!, content: "My bank password is hunter2-Secret!" }]);
      const back = await db.selectFrom("memories").select(["content", "flaggedSecret", "derivedFrom"]).where("userId", "=", 1).orderBy("id").execute();
      expect(back.map((row) => [row.content, Number(row.flaggedSecret), row.derivedFrom])).toEqual([
        ["Prefers aisle seats", 0, null],
        ["Board meets on Tuesdays", 0, null],
        ["Assistant is Maria", 0, null],
        ["Invoices go to the Zurich office", 0, JSON.stringify({ title: from.title })],
        ["My bank password is hunter2-Secret!", 1, null],
      ]);
    });
  });
}
