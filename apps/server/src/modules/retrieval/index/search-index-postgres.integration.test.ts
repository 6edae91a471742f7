import { expect, it } from "vitest";
import { openPostgresDb } from "../../../store/postgres/open-postgres-db.ts";
import { describeOnPostgres } from "../../../test/test-databases.ts";
import { openPgSearchIndex } from "./pg-search-index.ts";
import { itemIn, searchIndexCases, searchOver, topicEmbedder } from "./search-index-test-helpers.ts";
import { createVectorizer } from "./vectorizer.ts";

describeOnPostgres("the search index on PostgreSQL", (databases) => {
  searchIndexCases("PostgreSQL", databases.open);

  it("what one process stores another finds at its next search, by words and by meaning, and a removal too", async () => {
    const database = await databases.open();
    const other = await openPostgresDb({ url: database.url! });
    try {
      await database.db.insertInto("users").values({ id: 3, username: "me", passwordHash: "x", createdAt: "x" }).execute();
      const [processA, processB] = [
        await openPgSearchIndex({ db: database.db, sql: database.sql! }),
        await openPgSearchIndex({ db: other.db, sql: other.sql }),
      ];
      const embedder = topicEmbedder();
      const vectorizerA = createVectorizer({ unembedded: processA.unembedded, embedder, vectors: processA.vectors });
      const searchB = searchOver(processB, embedder);
      expect(await searchB("docks quay")).toEqual([]);

      const lease = await itemIn(database.db, "Lease.txt");
      await processA.chunks.replaceItemChunks(lease, [{ position: 0, source: "", content: "The harbour lease renews in March." }]);
      await vectorizerA.indexItem(lease.id);
      expect(await searchB("harbour")).toEqual(["Lease.txt"]);
      expect(await searchB("docks quay")).toEqual(["Lease.txt"]); // no word in common: by its vector

      const trip = await itemIn(database.db, "Trip.txt");
      await processA.chunks.replaceItemChunks(trip, [{ position: 0, source: "", content: "Flight to Lisbon booked by the travel desk." }]);
      await vectorizerA.indexItem(trip.id);
      expect(await searchB("airport")).toEqual(["Trip.txt"]);

      await processA.chunks.removeItemChunks(lease.id);
      expect(await searchB("docks quay")).not.toContain("Lease.txt");
      expect(await searchB("harbour")).toEqual([]);
    } finally {
      await other.close();
      await database.close();
    }
  });

  it("four processes starting together on an empty database make the index and start it, each once, none failing", async () => {
    const database = await databases.open();
    const pools = await Promise.all([1, 2, 3].map(() => openPostgresDb({ url: database.url! })));
    try {
      const stores = [{ db: database.db, sql: database.sql! }, ...pools.map((pool) => ({ db: pool.db, sql: pool.sql }))];
      await Promise.all(stores.map(async (store) => (await openPgSearchIndex(store)).start()));
      const { rows } = await database.sql!.query<{ name: string }>(
        "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'chunk_terms' ORDER BY indexname",
      );
      expect(rows.map((row) => row.name)).toEqual(["chunk_terms_pkey", "chunk_terms_user", "chunk_terms_words"]);
    } finally {
      for (const pool of pools) await pool.close();
      await database.close();
    }
  });
});
