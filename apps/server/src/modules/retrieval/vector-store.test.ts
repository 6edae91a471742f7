import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../store/open-store.ts";
import { insertKnowledge } from "./test-knowledge.ts";
import { createVectorStore, SYNC_BUILD_LIMIT } from "./vector-store.ts";

let store: Store;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await store.close();
  temp.remove();
});

function vectorFor(seed: number): number[] {
  const vector = Array.from({ length: 8 }, (_, index) => Math.sin(seed * 12.9898 + index * 78.233));
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

describe("vector store", () => {
  it("saves HNSW partitions at shutdown, reads them back when they match the table, and rebuilds when they do not", async () => {
    temp = makeTempDir();
    store = openStore({ dataDir: temp.dir });
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
    const { chunkIds } = insertKnowledge(store.sqlite, { userId: 3, name: "many.txt", chunks: Array.from({ length: 2500 }, (_, index) => `chunk ${index}`) });
    const indexDir = path.join(temp.dir, "vector-index");

    const first = createVectorStore(store.sqlite, { indexDir });
    first.upsert("test:8", chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) })));
    const target = chunkIds[1234]!;
    expect(first.search("test:8", vectorFor(target), { userId: 3 }, 3)[0]!.chunkId).toBe(target);
    expect(first.persist()).toBe(1);
    expect(readdirSync(indexDir).sort()).toHaveLength(2);

    const second = createVectorStore(store.sqlite, { indexDir });
    expect(second.search("test:8", vectorFor(target), { userId: 3 }, 3)[0]!.chunkId).toBe(target);
    // Read back and unchanged: shutdown leaves the saved files alone instead of rewriting them.
    const savedAt = statSync(path.join(indexDir, readdirSync(indexDir).find((name) => name.endsWith(".hnsw"))!)).mtimeMs;
    expect(second.persist()).toBe(0);
    second.upsert("test:8", [{ chunkId: chunkIds[0]!, userId: 3, conversationId: null, vector: vectorFor(chunkIds[0]!) }]);
    expect(second.persist()).toBe(1);
    expect(statSync(path.join(indexDir, readdirSync(indexDir).find((name) => name.endsWith(".hnsw"))!)).mtimeMs).toBeGreaterThanOrEqual(savedAt);

    // A chunk deleted after the save: the saved index no longer matches, is rebuilt, and never returns it.
    store.sqlite.prepare("DELETE FROM chunks WHERE id = ?").run(target);
    const third = createVectorStore(store.sqlite, { indexDir });
    const hits = third.search("test:8", vectorFor(target), { userId: 3 }, 5);
    expect(hits.map((hit) => hit.chunkId)).not.toContain(target);
    expect(hits).toHaveLength(5);
    expect(existsSync(indexDir)).toBe(true);
  });

  it("builds a large partition in the background, answering nothing from vectors until it is ready", async () => {
    temp = makeTempDir();
    store = openStore({ dataDir: temp.dir });
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
    const count = SYNC_BUILD_LIMIT + 100;
    const { chunkIds } = insertKnowledge(store.sqlite, { userId: 3, name: "big.txt", chunks: Array.from({ length: count }, (_, index) => `chunk ${index}`) });
    createVectorStore(store.sqlite).upsert("test:8", chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) })));

    const fresh = createVectorStore(store.sqlite);
    const target = chunkIds[4321]!;
    expect(fresh.search("test:8", vectorFor(target), { userId: 3 }, 3)).toEqual([]);
    await fresh.warm("test:8", 3);
    expect(fresh.search("test:8", vectorFor(target), { userId: 3 }, 3)[0]!.chunkId).toBe(target);
  });

  it("saves a partition built in the background at once, so a crash before shutdown needs no rebuild", async () => {
    temp = makeTempDir();
    store = openStore({ dataDir: temp.dir });
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
    const { chunkIds } = insertKnowledge(store.sqlite, { userId: 3, name: "big.txt", chunks: Array.from({ length: SYNC_BUILD_LIMIT + 100 }, (_, index) => `chunk ${index}`) });
    createVectorStore(store.sqlite).upsert("test:8", chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) })));
    const indexDir = path.join(temp.dir, "vector-index");

    await createVectorStore(store.sqlite, { indexDir }).warm("test:8", 3);
    // No persist() call: the process "crashed". The next start reads the index instead of building it.
    const restarted = createVectorStore(store.sqlite, { indexDir });
    const target = chunkIds[77]!;
    expect(restarted.search("test:8", vectorFor(target), { userId: 3 }, 1)[0]!.chunkId).toBe(target);
  });
});
