import type { Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../../providers/embedder/embedder.ts";
import type { Database } from "../../../store/schema.ts";
import { testDatabasesOf, type OpenTestDatabase, type TestDatabase } from "../../../test/test-databases.ts";
import { createRetrievalService } from "../retrieval.service.ts";
import { openPgSearchIndex } from "./pg-search-index.ts";
import { queryTerms } from "./query-terms.ts";
import type { SearchIndex } from "./search-index.ts";
import { openSqliteSearchIndex } from "./sqlite-search-index.ts";
import { createVectorizer } from "./vectorizer.ts";

const ME = 3;
const OTHER = 4;
const AT = "2026-11-28T09:00:00.000Z";

/** Words of one meaning: a text's vector counts each topic's words, so texts sharing no word can still be close. */
const TOPICS = [
  ["harbour", "port", "quay", "docks"],
  ["budget", "cost", "money", "spending"],
  ["flight", "travel", "trip", "airport"],
  ["lunch", "dinner", "menu", "food"],
];
export const topicEmbedder = (id = "test:topics:4"): Embedder & { calls: number } => {
  const embedder = {
    id,
    dimensions: 4,
    maxBatch: 16,
    calls: 0,
    async embed(texts: string[]) {
      embedder.calls += 1;
      return texts.map((text) => {
        const words = text.toLowerCase().split(/[^a-z]+/);
        const vector = TOPICS.map((topic) => words.filter((word) => topic.includes(word)).length + 0.01);
        const norm = Math.hypot(...vector);
        return vector.map((value) => value / norm);
      });
    },
  };
  return embedder;
};

/** The engine's search index, closed after the test. */
export async function openSearchIndexOf(database: TestDatabase): Promise<SearchIndex> {
  return database.sqlite ? openSqliteSearchIndex(database.sqlite, () => undefined) : openPgSearchIndex({ db: database.db, sql: database.sql! });
}

export const itemIn = async (db: Kysely<Database>, name: string, userId = ME) => ({
  id: (
    await db
      .insertInto("knowledgeItems")
      .values({ userId, conversationId: null, type: "file", name, createdAt: AT, updatedAt: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id,
  userId,
  conversationId: null,
});

/** Search with words and vectors over either engine's index, as the retrieval module composes it. */
export function searchOver(index: SearchIndex, embedder: Embedder) {
  const service = createRetrievalService({
    chunks: index.chunks,
    lexicalSearch: index.lexicalSearch,
    conversations: { ownsConversation: async () => true },
    embedder,
    vectors: index.vectors,
  });
  // The files found, best first (a file found by two passages is named once).
  return async (query: string, userId = ME) => [...new Set((await service.search({ userId, query, limit: 5 })).map((result) => result.metadata.filename))];
}

/** The search index as a whole, the same on each engine: search-index.test.ts (SQLite), search-index-postgres.integration.test.ts. */
export function searchIndexCases(engine: string, open: OpenTestDatabase) {
  describe(`the search index (${engine})`, () => {
    const databases = testDatabasesOf(open);
    const opened: SearchIndex[] = [];
    afterEach(async () => {
      for (const index of opened.splice(0)) await index.close();
    });
    async function setUp() {
      const database = await databases.databaseWithUsers(ME, OTHER);
      const index = await openSearchIndexOf(database);
      opened.push(index);
      await index.start();
      const embedder = topicEmbedder();
      const vectorizer = createVectorizer({ unembedded: index.unembedded, embedder, vectors: index.vectors });
      return { db: database.db, index, embedder, vectorizer, search: searchOver(index, embedder) };
    }

    it("finds an item by its words and by meaning, a renamed one by its new name, and never another user's", async () => {
      const { db, index, vectorizer, search } = await setUp();
      const lease = await itemIn(db, "Lease.txt");
      await index.chunks.replaceItemChunks(lease, [{ position: 0, source: "", content: "The harbour lease renews in March at the quay." }]);
      const trip = await itemIn(db, "Trip.txt");
      await index.chunks.replaceItemChunks(trip, [{ position: 0, source: "", content: "Flight to Lisbon; the travel desk books it." }]);
      const theirs = await itemIn(db, "Theirs.txt", OTHER);
      await index.chunks.replaceItemChunks(theirs, [{ position: 0, source: "", content: "Their harbour docks and port fees." }]);
      for (const item of [lease, trip, theirs]) await vectorizer.indexItem(item.id);

      expect(await index.vectors.hasVectors("test:topics:4", ME)).toBe(true);
      expect(await index.vectors.counts(ME, "test:topics:4")).toEqual({ current: 2, other: 0 });
      expect((await search("harbour lease"))[0]).toBe("Lease.txt");
      // No word in common with the lease: found by its vector alone.
      expect(await search("docks port")).toEqual(["Lease.txt"]);
      expect(await search("airport")).toEqual(["Trip.txt"]);
      expect(await search("docks port", OTHER)).toEqual(["Theirs.txt"]);

      await db.updateTable("knowledgeItems").set({ name: "Kingfisher.txt" }).where("id", "=", trip.id).execute();
      await index.itemRenamed(trip.id);
      const byName = await index.lexicalSearch(queryTerms("kingfisher"), { userId: ME }, 10);
      expect(byName.map((hit) => hit.itemId)).toEqual([trip.id]);
      expect((await search("kingfisher"))[0]).toBe("Kingfisher.txt");
    });

    it("embeds only what lacks a vector, and a re-vectorise with another embedder leaves none of the old", async () => {
      const { db, index, vectorizer, embedder } = await setUp();
      const plan = await itemIn(db, "Plan.txt");
      await index.chunks.replaceItemChunks(
        plan,
        Array.from({ length: 40 }, (_, position) => ({ position, source: "", content: `budget line ${position}` })),
      );
      expect(await vectorizer.usersMissingVectors()).toEqual([ME]);
      expect(await vectorizer.vectorizeUser(ME)).toBe(40);
      expect(embedder.calls).toBe(3); // 16 at a time
      expect(await vectorizer.vectorizeUser(ME)).toBe(0);
      expect(await vectorizer.usersMissingVectors()).toEqual([]);

      const next = topicEmbedder("test:topics-v2:4");
      const revectorizer = createVectorizer({ unembedded: index.unembedded, embedder: next, vectors: index.vectors });
      expect(await revectorizer.revectorizeUser(ME)).toBe(40);
      expect(await index.vectors.counts(ME, "test:topics-v2:4")).toEqual({ current: 40, other: 0 });
      expect(await index.vectors.usersWith("test:topics:4")).toEqual([]);
      expect(await index.vectors.dimensions(ME, "test:topics-v2:4")).toBe(4);
    });

    it("a restore empties the user's chunks a batch at a time and writes them back with their vectors, searchable at once", async () => {
      const { db, index, vectorizer, search } = await setUp();
      const lease = await itemIn(db, "Lease.txt");
      await index.chunks.replaceItemChunks(lease, [
        { position: 0, source: "page 1", content: "The harbour lease renews in March." },
        { position: 1, source: "page 2", content: "Rent is paid to the port authority." },
      ]);
      await vectorizer.indexItem(lease.id);
      const chunks = await index.chunks.exportPage(ME, 0, 10);
      const vectors = await index.vectors.exportPage(ME, "test:topics:4", 0, 10);
      expect(vectors.map((row) => row.chunk_id)).toEqual(chunks.map((row) => row.id));

      const steps: number[] = [];
      for (let step = await index.deleteUserChunks(ME, 1); step > 0; step = await index.deleteUserChunks(ME, 1)) steps.push(step);
      expect(steps).toEqual([1, 1]);
      expect(await index.vectors.counts(ME, "test:topics:4")).toEqual({ current: 0, other: 0 });
      expect(await search("harbour")).toEqual([]);

      const ids = await index.insertRestored(
        ME,
        chunks.map((row) => ({ itemId: lease.id, conversationId: null, position: row.position, source: row.source, content: row.content })),
        { embedder: { id: "test:topics:4", dimensions: 4 }, rows: vectors.map((row, at) => ({ chunk: at, vector: Buffer.from(row.vector, "base64") })) },
      );
      await index.repairAfterRestore(ME);
      expect(ids).toHaveLength(2);
      expect((await index.chunks.itemPieces(ME, lease.id, null, 10)).map(({ source, content }) => ({ source, content }))).toEqual([
        { source: "page 1", content: "The harbour lease renews in March." },
        { source: "page 2", content: "Rent is paid to the port authority." },
      ]);
      expect(await index.vectors.counts(ME, "test:topics:4")).toEqual({ current: 2, other: 0 });
      expect(await search("harbour")).toEqual(["Lease.txt"]);
      expect(await search("docks quay")).toEqual(["Lease.txt"]); // by the restored vectors
      expect(await index.vectors.deleteUser(ME)).toBe(2);
      expect(await index.vectors.hasVectors("test:topics:4", ME)).toBe(false);
    });
  });
}
