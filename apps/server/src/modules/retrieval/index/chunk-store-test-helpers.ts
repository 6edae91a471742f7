import { describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../../store/schema.ts";
import { testDatabasesOf, type OpenTestDatabase, type TestDatabase } from "../../../test/test-databases.ts";
import { createChunkStore, type ChunkInput, type ChunkRows } from "./chunk-store.ts";
import { createLexicalSearch } from "./lexical-search.ts";
import { openPgLexicalIndex } from "./pg-lexical-index.ts";
import { createPgChunkStore } from "./pg-chunk-store.ts";
import { queryTerms } from "./query-terms.ts";

const ME = 3;
const OTHER = 4;
const AT = "2026-11-28T09:00:00.000Z";

/** The engine's chunk store with its word index, and a search of the user's chunks by the words of a query. */
async function chunkStoreOf(database: TestDatabase): Promise<{ chunks: ChunkRows; found(query: string, userId?: number): Promise<number[]> }> {
  if (database.sqlite) {
    const search = createLexicalSearch(database.sqlite.sqlite);
    return {
      chunks: createChunkStore(database.sqlite.sqlite),
      found: async (query, userId = ME) => search(queryTerms(query), { userId }, 10_000).map((hit) => hit.chunkId),
    };
  }
  const words = await openPgLexicalIndex(database.sql!);
  return {
    chunks: createPgChunkStore(database.db, words),
    found: async (query, userId = ME) => (await words.search(queryTerms(query), { userId }, 10_000)).map((hit) => hit.chunkId),
  };
}

const itemIn = async (db: Kysely<Database>, name: string, userId = ME, conversationId: number | null = null) => ({
  id: (
    await db
      .insertInto("knowledgeItems")
      .values({ userId, conversationId, type: "file", name, createdAt: AT, updatedAt: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id,
  userId,
  conversationId,
});
const rowsOf = async (db: Kysely<Database>, itemId: number): Promise<ChunkInput[]> =>
  (await sql<ChunkInput>`SELECT position, source, content FROM chunks WHERE item_id = ${itemId} ORDER BY id`.execute(db)).rows;

/** The search index's chunks, the same on each engine: chunk-store.test.ts (SQLite), chunk-store.integration.test.ts. */
export function chunkStoreCases(engine: string, open: OpenTestDatabase) {
  describe(`chunk store (${engine})`, () => {
    const databases = testDatabasesOf(open);
    async function setUp() {
      const database = await databases.databaseWithUsers(ME, OTHER);
      return { db: database.db, ...(await chunkStoreOf(database)) };
    }

    it("stores every chunk of a long document in order from slices as they arrive, each findable by its words", async () => {
      const { db, chunks, found } = await setUp();
      const item = await itemIn(db, "report.txt");
      const all = Array.from({ length: 1_200 }, (_, position) => ({
        position,
        source: `page ${position + 1}`,
        content: `budget line ${position} word${position}`,
      }));
      async function* slices() {
        for (let start = 0; start < all.length; start += 333) yield all.slice(start, start + 333);
      }
      expect(await chunks.replaceItemChunks(item, slices())).toBe(1_200);
      expect(await rowsOf(db, item.id)).toEqual(all);
      expect(await found("word1123")).toHaveLength(1);
      // The item's name is searched with its text.
      const named = await itemIn(db, "Kingfisher survey.txt");
      await chunks.replaceItemChunks(named, [{ position: 0, source: "", content: "counts by the river" }]);
      expect(await found("kingfisher")).toHaveLength(1);
      expect(await chunks.countForUser(ME)).toBe(1_201);
      expect(await chunks.countForUser(OTHER)).toBe(0);
    });

    it("replaces the item's earlier chunks and leaves other items alone; a removed item is found no more", async () => {
      const { db, chunks, found } = await setUp();
      const first = await itemIn(db, "a.txt");
      const second = await itemIn(db, "b.txt");
      await chunks.replaceItemChunks(first, [{ position: 0, source: "", content: "old harbour plan" }]);
      await chunks.replaceItemChunks(second, [{ position: 0, source: "", content: "harbour budget" }]);
      await chunks.replaceItemChunks(first, [{ position: 0, source: "", content: "new airport plan" }]);
      expect((await rowsOf(db, first.id)).map((row) => row.content)).toEqual(["new airport plan"]);
      expect(await found("harbour")).toHaveLength(1);
      expect(await found("airport")).toHaveLength(1);
      await chunks.removeItemChunks(first.id);
      expect(await found("airport")).toEqual([]);
      expect(await rowsOf(db, first.id)).toEqual([]);
    });

    it("stores a lone surrogate as U+FFFD, and refuses chunks of an item that does not exist", async () => {
      const { db, chunks, found } = await setUp();
      const item = await itemIn(db, "odd.txt");
      await chunks.replaceItemChunks(item, [{ position: 0, source: "p\uD800", content: "lone \uDC00 surrogate" }]);
      expect(await rowsOf(db, item.id)).toEqual([{ position: 0, source: "p\uFFFD", content: "lone \uFFFD surrogate" }]);
      await expect(
        chunks.replaceItemChunks({ id: 999_999, userId: ME, conversationId: null }, [{ position: 0, source: "", content: "orphan text" }]),
      ).rejects.toThrow();
      expect(await found("orphan")).toEqual([]);
    });

    it("stores many small items together, each with its own chunks, skipping one deleted meanwhile", async () => {
      const { db, chunks, found } = await setUp();
      const mails = [];
      for (let index = 0; index < 120; index++) {
        mails.push({
          item: await itemIn(db, `mail ${index}.eml`),
          chunks: [
            { position: 0, source: "", content: `mail ${index} greeting word${index}` },
            { position: 1, source: "", content: `mail ${index} heron survey` },
          ],
        });
      }
      const deleted = { item: { id: 999_999, userId: ME, conversationId: null }, chunks: [{ position: 0, source: "", content: "orphan text" }] };
      const long = {
        item: await itemIn(db, "long.eml"),
        chunks: Array.from({ length: 900 }, (_, position) => ({ position, source: "", content: `long thread line ${position}` })),
      };
      const counts = await chunks.replaceItemsChunks([...mails.slice(0, 60), deleted, long, ...mails.slice(60)]);
      expect(counts).toEqual([...mails.slice(0, 60).map(() => 2), null, 900, ...mails.slice(60).map(() => 2)]);
      expect((await rowsOf(db, mails[37]!.item.id)).map((row) => row.content)).toEqual(["mail 37 greeting word37", "mail 37 heron survey"]);
      expect(await rowsOf(db, long.item.id)).toHaveLength(900);
      expect(await found("word119")).toHaveLength(1);
      expect(await found("orphan")).toEqual([]);
    });

    it("answers an item's pieces in order, details in the order asked without a deleted conversation's, and backup pages", async () => {
      const { db, chunks } = await setUp();
      const gone = (
        await db
          .insertInto("conversations")
          .values({ userId: ME, name: "Gone", createdAt: AT, updatedAt: AT, deletedAt: AT })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      const deck = await itemIn(db, "deck.pptx");
      const hidden = await itemIn(db, "hidden.txt", ME, gone);
      await chunks.replaceItemChunks(deck, [
        { position: 0, source: "slide 1", content: "Q3 revenue" },
        { position: 1, source: "slide 2", content: "Q4 plan" },
      ]);
      await chunks.replaceItemChunks(hidden, [{ position: 0, source: "", content: "kept, not shown" }]);
      const pieces = (page: Awaited<ReturnType<typeof chunks.itemPieces>>) => page.map(({ source, content }) => ({ source, content }));
      expect(pieces(await chunks.itemPieces(ME, deck.id, null, 10))).toEqual([
        { source: "slide 1", content: "Q3 revenue" },
        { source: "slide 2", content: "Q4 plan" },
      ]);
      // A page at a time: the next page starts after the last piece of the one before.
      const [first] = await chunks.itemPieces(ME, deck.id, null, 1);
      expect(pieces(await chunks.itemPieces(ME, deck.id, first!, 10))).toEqual([{ source: "slide 2", content: "Q4 plan" }]);
      expect(await chunks.itemPieces(OTHER, deck.id, null, 10)).toEqual([]);

      const page = await chunks.exportPage(ME, 0, 10);
      expect(page.map((row) => [row.item_id, row.position, row.source, row.content])).toEqual([
        [deck.id, 0, "slide 1", "Q3 revenue"],
        [deck.id, 1, "slide 2", "Q4 plan"],
        [hidden.id, 0, "", "kept, not shown"],
      ]);
      expect(await chunks.exportPage(ME, page[1]!.id, 10)).toHaveLength(1);
      const details = await chunks.details([page[1]!.id, page[2]!.id, page[0]!.id]);
      expect(details.map((row) => [row.content, row.filename, row.itemType, row.source])).toEqual([
        ["Q4 plan", "deck.pptx", "file", "slide 2"],
        ["Q3 revenue", "deck.pptx", "file", "slide 1"],
      ]);
      expect(await chunks.details([])).toEqual([]);
    });
  });
}
