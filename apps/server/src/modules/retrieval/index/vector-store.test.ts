import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createTestVectorStore, TEST_VECTOR_LIMITS } from "./test-vector-limits.ts";

let store: Store;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await store.close();
  temp.remove();
});

/**
 * A unit vector in general position. (sin(seed + index x b) put every vector on one circle, a plane of the space: a
 * vector off that plane had no near neighbour, and an HNSW graph need not keep a way to reach such a node.)
 */
function vectorFor(seed: number): number[] {
  let state = (seed * 2654435761) % 2147483648;
  const vector = Array.from({ length: 8 }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** A store past the size that builds in the background: user 3 with one big file, vectors in the table only. */
function bigStore(): number[] {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  const { chunkIds } = insertKnowledge(store.sqlite, {
    userId: 3,
    name: "big.txt",
    chunks: Array.from({ length: TEST_VECTOR_LIMITS.syncBuildLimit + 100 }, (_, index) => `chunk ${index}`),
  });
  createTestVectorStore(store.sqlite).upsert(
    "test:8",
    chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) })),
  );
  return chunkIds;
}

describe("vector store", () => {
  it("saves HNSW partitions at shutdown, reads them back, and drops from them what the table no longer has", async () => {
    temp = makeTempDir();
    store = openStore({ dataDir: temp.dir });
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
    const { chunkIds } = insertKnowledge(store.sqlite, { userId: 3, name: "many.txt", chunks: Array.from({ length: 250 }, (_, index) => `chunk ${index}`) });
    const indexDir = path.join(temp.dir, "vector-index");

    const first = createTestVectorStore(store.sqlite, { indexDir });
    first.upsert(
      "test:8",
      chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) })),
    );
    const target = chunkIds[123]!;
    expect(first.search("test:8", vectorFor(target), { userId: 3 }, 3)[0]!.chunkId).toBe(target);
    expect(first.persist()).toBe(1);
    expect(readdirSync(indexDir).sort()).toHaveLength(2);

    const second = createTestVectorStore(store.sqlite, { indexDir });
    expect(second.search("test:8", vectorFor(target), { userId: 3 }, 3)[0]!.chunkId).toBe(target);
    // Read back and unchanged: shutdown leaves the saved files alone instead of rewriting them.
    const savedAt = statSync(
      path.join(
        indexDir,
        readdirSync(indexDir).find((name) => name.endsWith(".usearch"))!,
      ),
    ).mtimeMs;
    expect(second.persist()).toBe(0);
    second.upsert("test:8", [{ chunkId: chunkIds[0]!, userId: 3, conversationId: null, vector: vectorFor(chunkIds[0]!) }]);
    expect(second.persist()).toBe(1);
    expect(
      statSync(
        path.join(
          indexDir,
          readdirSync(indexDir).find((name) => name.endsWith(".usearch"))!,
        ),
      ).mtimeMs,
    ).toBeGreaterThanOrEqual(savedAt);

    // A chunk deleted after the save: the saved index lags the table, catches up, and never returns it.
    store.sqlite.prepare("DELETE FROM chunks WHERE id = ?").run(target);
    const third = createTestVectorStore(store.sqlite, { indexDir });
    const hits = third.search("test:8", vectorFor(target), { userId: 3 }, 5);
    expect(hits.map((hit) => hit.chunkId)).not.toContain(target);
    expect(hits).toHaveLength(5);
    expect(existsSync(indexDir)).toBe(true);
  });

  it("builds a large partition in the background, answering nothing from vectors until it is ready", async () => {
    const chunkIds = bigStore();

    const fresh = createTestVectorStore(store.sqlite);
    const target = chunkIds[432]!;
    expect(fresh.search("test:8", vectorFor(target), { userId: 3 }, 3)).toEqual([]);
    await fresh.warm("test:8", 3);
    expect(fresh.search("test:8", vectorFor(target), { userId: 3 }, 3)[0]!.chunkId).toBe(target);
  });

  it("saves a partition built in the background at once, so a crash before shutdown needs no rebuild", async () => {
    const chunkIds = bigStore();
    const indexDir = path.join(temp.dir, "vector-index");

    await createTestVectorStore(store.sqlite, { indexDir }).warm("test:8", 3);
    // No persist() call: the process "crashed". The next start reads the index instead of building it.
    const restarted = createTestVectorStore(store.sqlite, { indexDir });
    const target = chunkIds[77]!;
    expect(restarted.search("test:8", vectorFor(target), { userId: 3 }, 1)[0]!.chunkId).toBe(target);
  });

  /** A store past the size that builds in the background, its index built and saved; then changes and a "crash". */
  async function savedBigIndex() {
    const chunkIds = bigStore();
    const indexDir = path.join(temp.dir, "vector-index");
    const running = createTestVectorStore(store.sqlite, { indexDir });
    await running.warm("test:8", 3); // built in the background and saved at once
    const addChunks = (count: number) => {
      const { chunkIds: added } = insertKnowledge(store.sqlite, {
        userId: 3,
        name: `new-${count}.txt`,
        chunks: Array.from({ length: count }, (_, index) => `new ${index}`),
      });
      running.upsert(
        "test:8",
        added.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) })),
      );
      return added;
    };
    return { chunkIds, indexDir, running, addChunks };
  }

  it("after a crash, reads the saved index back and catches up with the chunks added and deleted since, answering at once", async () => {
    const { chunkIds, indexDir, addChunks } = await savedBigIndex();
    const added = addChunks(10);
    const gone = chunkIds[10]!;
    store.sqlite.prepare("DELETE FROM chunks WHERE id = ?").run(gone);
    // No persist(): the process "crashed" with 10 vectors and a deletion the saved index has not seen.

    const restarted = createTestVectorStore(store.sqlite, { indexDir });
    // A rebuild at this size would run in the background and answer nothing from vectors yet.
    expect(restarted.search("test:8", vectorFor(added[7]!), { userId: 3 }, 1)[0]!.chunkId).toBe(added[7]);
    expect(restarted.search("test:8", vectorFor(chunkIds[400]!), { userId: 3 }, 1)[0]!.chunkId).toBe(chunkIds[400]);
    const near = restarted.search("test:8", vectorFor(gone), { userId: 3 }, 5);
    expect(near).toHaveLength(5);
    expect(near.map((hit) => hit.chunkId)).not.toContain(gone);
    // The caught-up index is what shutdown saves; the next start reads it back as it is.
    expect(restarted.persist()).toBe(1);
    const again = createTestVectorStore(store.sqlite, { indexDir });
    expect(again.search("test:8", vectorFor(added[9]!), { userId: 3 }, 1)[0]!.chunkId).toBe(added[9]);
    expect(again.persist()).toBe(0);
  });

  it("catches up in the background when the saved index lacks many vectors, without losing the ones it had", async () => {
    const { chunkIds, indexDir, addChunks } = await savedBigIndex();
    const added = addChunks(TEST_VECTOR_LIMITS.syncCatchUpLimit + 50);

    const restarted = createTestVectorStore(store.sqlite, { indexDir });
    expect(restarted.search("test:8", vectorFor(added[3]!), { userId: 3 }, 1)).toEqual([]);
    await restarted.warm("test:8", 3);
    expect(restarted.search("test:8", vectorFor(added[3]!), { userId: 3 }, 1)[0]!.chunkId).toBe(added[3]);
    expect(restarted.search("test:8", vectorFor(chunkIds[321]!), { userId: 3 }, 1)[0]!.chunkId).toBe(chunkIds[321]);
  });

  it("forgetting a user (reset, import, re-vectorise) deletes their saved indexes too", async () => {
    const { indexDir, running } = await savedBigIndex();
    expect(readdirSync(indexDir).length).toBe(2);
    running.forgetUser(3);
    expect(readdirSync(indexDir)).toEqual([]);
  });

  it("a background build overtaken by a rewrite of the user's vectors is thrown away, not installed stale", async () => {
    const chunkIds = bigStore();
    const vectors = createTestVectorStore(store.sqlite, { indexDir: path.join(temp.dir, "vector-index") });
    const target = chunkIds[3]!;
    expect(vectors.search("test:8", vectorFor(target), { userId: 3 }, 1)).toEqual([]); // the build has started, past the target

    // A re-vectorise rewrites the target's vector under the same embedder while the build runs, then forgets the user.
    // (vectorFor's vectors all lie in one plane; this one is off it, so no other chunk is near.)
    const rewritten = [1, -1, 1, -1, 1, -1, 1, -1].map((value) => value / Math.sqrt(8));
    vectors.upsert("test:8", [{ chunkId: target, userId: 3, conversationId: null, vector: rewritten }]);
    vectors.forgetUser(3);
    await vectors.warm("test:8", 3); // waits for the overtaken build; the next one reads the table afresh
    await vectors.warm("test:8", 3);
    expect(vectors.search("test:8", rewritten, { userId: 3 }, 1)[0]).toEqual({ chunkId: target, similarity: expect.closeTo(1, 5) });
  });

  it("a vector replaced while a background build runs reaches the index the build installs", async () => {
    const chunkIds = bigStore();
    const vectors = createTestVectorStore(store.sqlite);
    const target = chunkIds[3]!;
    expect(vectors.search("test:8", vectorFor(target), { userId: 3 }, 1)).toEqual([]); // building, already past the target
    const rewritten = [1, 1, -1, -1, 1, 1, -1, -1].map((value) => value / Math.sqrt(8));
    vectors.upsert("test:8", [{ chunkId: target, userId: 3, conversationId: null, vector: rewritten }]);
    await vectors.warm("test:8", 3);
    expect(vectors.search("test:8", rewritten, { userId: 3 }, 1)[0]).toEqual({ chunkId: target, similarity: expect.closeTo(1, 5) });
  });

  it("saves nothing of a user while a re-vectorise replaces their vectors, and saves again once it ended", async () => {
    temp = makeTempDir();
    store = openStore({ dataDir: temp.dir });
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
    const { chunkIds } = insertKnowledge(store.sqlite, { userId: 3, name: "many.txt", chunks: Array.from({ length: 250 }, (_, index) => `chunk ${index}`) });
    const indexDir = path.join(temp.dir, "vector-index");
    const vectors = createTestVectorStore(store.sqlite, { indexDir });
    const rows = (seedOffset: number) => chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId + seedOffset) }));
    vectors.upsert("test:8", rows(0));
    await vectors.warm("test:8", 3);
    expect(vectors.persist()).toBe(1);

    vectors.discardSaved(3); // a re-vectorise starts
    expect(readdirSync(indexDir)).toEqual([]);
    vectors.upsert("test:8", rows(100_000).slice(0, 100));
    // A crash now must not find an index whose ids match the table but whose vectors are the old ones.
    expect(vectors.persist()).toBe(0);
    expect(readdirSync(indexDir)).toEqual([]);
    vectors.forgetOtherEmbedders(3, "test:8"); // it ended
    expect(vectors.persist()).toBe(1);
  });
});
