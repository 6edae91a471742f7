import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createChunkStore } from "./chunk-store.ts";
import { lexicalTable } from "./lexical-index.ts";
import { openSqliteTestDatabase } from "../../../test/test-databases.ts";
import { chunkStoreCases } from "./chunk-store-test-helpers.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open(): Store {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  cleanups.push(
    () => temp.remove(),
    () => store.close(),
  );
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  return store;
}
const emptyItem = (store: Store, name: string) => ({
  id: insertKnowledge(store.sqlite, { userId: 3, name, chunks: [] }).itemId,
  userId: 3,
  conversationId: null,
});
const found = (store: Store, query: string) =>
  (store.sqlite.prepare(`SELECT count(*) AS n FROM ${lexicalTable(3)} WHERE ${lexicalTable(3)} MATCH ?`).get(query) as { n: number }).n;

describe("chunk store on SQLite: its staging table", () => {
  it("a batch that fails stores nothing of itself, and the next item gets only its own chunks", async () => {
    const store = open();
    const chunks = createChunkStore(store.sqlite);
    const gone = { id: 999_999, userId: 3, conversationId: null };
    await expect(chunks.replaceItemChunks(gone, [{ position: 0, source: "", content: "orphan text" }])).rejects.toThrow(/FOREIGN KEY/);
    const item = emptyItem(store, "next.txt");
    await chunks.replaceItemChunks(item, [{ position: 0, source: "", content: "kept text" }]);

    expect(store.sqlite.prepare("SELECT content FROM chunks").pluck().all()).toEqual(["kept text"]);
    expect(found(store, "orphan")).toBe(0);
  });
});

chunkStoreCases("SQLite", openSqliteTestDatabase);
