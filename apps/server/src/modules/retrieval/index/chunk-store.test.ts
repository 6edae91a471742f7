import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createChunkStore, type ChunkInput } from "./chunk-store.ts";
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
const rowsOf = (store: Store, itemId: number) =>
  store.sqlite.prepare("SELECT position, source, content FROM chunks WHERE item_id = ? ORDER BY id").all(itemId) as ChunkInput[];
const found = (store: Store, query: string) =>
  (store.sqlite.prepare(`SELECT count(*) AS n FROM ${lexicalTable(3)} WHERE ${lexicalTable(3)} MATCH ?`).get(query) as { n: number }).n;

describe("chunk store: an item's chunks written in batches", () => {
  it("stores every chunk of a long document in order and makes each findable, from slices as they arrive", async () => {
    const store = open();
    const chunks = createChunkStore(store.sqlite);
    const item = emptyItem(store, "report.txt");
    const all = Array.from({ length: 2_500 }, (_, position) => ({
      position,
      source: `page ${position + 1}`,
      content: `budget line ${position} word${position}`,
    }));
    async function* slices() {
      for (let start = 0; start < all.length; start += 333) yield all.slice(start, start + 333);
    }

    expect(await chunks.replaceItemChunks(item, slices())).toBe(2_500);
    expect(rowsOf(store, item.id)).toEqual(all);
    expect(found(store, "budget")).toBe(2_500);
    expect(found(store, "word1234")).toBe(1);
  });

  it("replaces the item's earlier chunks, and leaves other items alone", async () => {
    const store = open();
    const chunks = createChunkStore(store.sqlite);
    const first = emptyItem(store, "a.txt");
    const second = emptyItem(store, "b.txt");
    await chunks.replaceItemChunks(first, [{ position: 0, source: "", content: "old harbour plan" }]);
    await chunks.replaceItemChunks(second, [{ position: 0, source: "", content: "harbour budget" }]);
    await chunks.replaceItemChunks(first, [{ position: 0, source: "", content: "new airport plan" }]);

    expect(rowsOf(store, first.id).map((row) => row.content)).toEqual(["new airport plan"]);
    expect(found(store, "harbour")).toBe(1);
    expect(found(store, "airport")).toBe(1);
  });

  it("stores a lone surrogate as U+FFFD rather than as invalid UTF-8", async () => {
    const store = open();
    const chunks = createChunkStore(store.sqlite);
    const item = emptyItem(store, "odd.txt");
    await chunks.replaceItemChunks(item, [{ position: 0, source: "p\uD800", content: "lone \uDC00 surrogate" }]);

    const row = store.sqlite.prepare("SELECT source, hex(content) AS bytes FROM chunks WHERE item_id = ?").get(item.id) as { source: string; bytes: string };
    expect(row.source).toBe("p\uFFFD");
    expect(row.bytes).toBe(Buffer.from("lone \uFFFD surrogate").toString("hex").toUpperCase());
  });

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

  it("stores many small items together, each with its own chunks, skipping one deleted meanwhile", async () => {
    const store = open();
    const chunks = createChunkStore(store.sqlite);
    const mails = Array.from({ length: 120 }, (_, index) => ({
      item: emptyItem(store, `mail ${index}.eml`),
      chunks: [
        { position: 0, source: "", content: `mail ${index} greeting word${index}` },
        { position: 1, source: "", content: `mail ${index} heron survey` },
      ],
    }));
    const deleted = { item: { id: 999_999, userId: 3, conversationId: null }, chunks: [{ position: 0, source: "", content: "orphan text" }] };
    // One long message among the short ones goes in by itself, in batches.
    const long = {
      item: emptyItem(store, "long.eml"),
      chunks: Array.from({ length: 900 }, (_, position) => ({ position, source: "", content: `long thread line ${position}` })),
    };
    const counts = await chunks.replaceItemsChunks([...mails.slice(0, 60), deleted, long, ...mails.slice(60)]);

    expect(counts).toEqual([...mails.slice(0, 60).map(() => 2), null, 900, ...mails.slice(60).map(() => 2)]);
    expect(rowsOf(store, mails[37]!.item.id).map((row) => row.content)).toEqual(["mail 37 greeting word37", "mail 37 heron survey"]);
    expect(rowsOf(store, long.item.id)).toHaveLength(900);
    expect(found(store, "heron")).toBe(120);
    expect(found(store, "word119")).toBe(1);
    expect(found(store, "orphan")).toBe(0);
  });
});

chunkStoreCases("SQLite", openSqliteTestDatabase);
