import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import type { Embedder } from "../../../providers/embedder/embedder.ts";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createTestVectorStore, TEST_VECTOR_LIMITS } from "./test-vector-limits.ts";
import { createVectorizer } from "./vectorizer.ts";

let store: Store;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await store.close();
  temp.remove();
});

/**
 * An embedder of 4 dimensions that records its calls and can fail on a given call. With `holdFirstCall`, the first
 * call waits inside the embedder until `release()`; `firstCall` resolves once it is there. `settled` resolves once
 * every call made so far has returned or thrown.
 */
function scriptedEmbedder(options: { failOnCall?: number; holdFirstCall?: boolean } = {}) {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let reachedFirst = () => {};
  const firstCall = new Promise<void>((resolve) => (reachedFirst = resolve));
  const idle: Array<() => void> = [];
  const embedder: Embedder = {
    id: "test:scripted:4",
    dimensions: 4,
    maxBatch: 10,
    async embed(texts) {
      calls.push(texts);
      const call = calls.length;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (call === 1) reachedFirst();
        if (call === 1 && options.holdFirstCall) await held;
        // A few milliseconds with the embedder, so batches overlap as they do against a real one.
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (call === options.failOnCall) throw new Error("embedder unavailable");
        return texts.map((_, index) => [1, index % 3, 0.5, 0.25]);
      } finally {
        inFlight -= 1;
        if (inFlight === 0) idle.splice(0).forEach((resolve) => resolve());
      }
    },
  };
  const settled = () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)));
  return { embedder, calls, maxInFlight: () => maxInFlight, firstCall, release, settled };
}

function setUp(chunks: number) {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  insertKnowledge(store.sqlite, { userId: 3, name: "plan.txt", chunks: Array.from({ length: chunks }, (_, index) => `chunk ${index}`) });
}

/** A pseudo-random unit vector per seed (mulberry32): unrelated seeds give far-apart vectors. */
function unitVector(seed: number): number[] {
  let state = seed + 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  const vector = Array.from({ length: 8 }, next);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** One embedder id with different models behind it (a local model folder replaced, an Ollama model pulled again). */
function model(offset: number, failOnCall?: number): Embedder {
  let calls = 0;
  return {
    id: "test:model:8",
    dimensions: 8,
    maxBatch: 100,
    async embed(texts) {
      if (++calls === failOnCall) throw new Error("killed");
      return texts.map((text) => unitVector(Number(/chunk (\d+)/.exec(text)![1]) + offset));
    },
  };
}

const vectorCount = () => (store.sqlite.prepare("SELECT count(*) AS n FROM chunk_vectors").get() as { n: number }).n;

describe("vectorizer", () => {
  it("embeds every chunk once, in batches no larger than the embedder allows, with the next batch requested while one is stored", async () => {
    setUp(35);
    const fake = scriptedEmbedder();
    const vectorizer = createVectorizer({ sqlite: store.sqlite, embedder: fake.embedder, vectors: createTestVectorStore(store.sqlite) });
    const progress: number[] = [];
    expect(await vectorizer.revectorizeUser(3, async (processed) => void progress.push(processed))).toBe(35);
    expect(fake.calls.map((texts) => texts.length)).toEqual([10, 10, 10, 5]);
    expect(new Set(fake.calls.flat()).size).toBe(35);
    expect(vectorCount()).toBe(35);
    expect(progress).toEqual([0, 10, 20, 30, 35]);
    expect(fake.maxInFlight()).toBe(2);
  });

  it("a chunk deleted while its text was being embedded loses only its own vector, and the run goes on", async () => {
    setUp(25);
    const fake = scriptedEmbedder({ holdFirstCall: true });
    const { embedder } = fake;
    const vectorizer = createVectorizer({
      sqlite: store.sqlite,
      embedder,
      vectors: createTestVectorStore(store.sqlite, { indexDir: path.join(temp.dir, "vector-index") }),
    });
    const run = vectorizer.vectorizeUser(3);
    // While the first batch is with the embedder, an item re-ingested or deleted (a resumed job, a request) takes
    // some of its chunks away.
    await fake.firstCall;
    store.sqlite.prepare("DELETE FROM chunks WHERE id IN (SELECT id FROM chunks ORDER BY id LIMIT 5)").run();
    fake.release();
    await expect(run).resolves.toBe(25);
    expect(vectorCount()).toBe(20);
  });

  it("a failing embedder call fails the run cleanly: what was stored stays, nothing is left unhandled", async () => {
    setUp(35);
    const fake = scriptedEmbedder({ failOnCall: 2 });
    const vectorizer = createVectorizer({ sqlite: store.sqlite, embedder: fake.embedder, vectors: createTestVectorStore(store.sqlite) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      await expect(vectorizer.vectorizeUser(3)).rejects.toThrow("embedder unavailable");
      // Every call has ended, and a turn of the event loop has passed for Node to report a rejection nobody took.
      await fake.settled();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(vectorCount()).toBe(10);
      // A later run picks up only what is missing.
      const retry = createVectorizer({ sqlite: store.sqlite, embedder: scriptedEmbedder().embedder, vectors: createTestVectorStore(store.sqlite) });
      expect(await retry.vectorizeUser(3)).toBe(25);
      expect(vectorCount()).toBe(35);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a re-vectorise cut off half-way leaves no saved index behind to serve the replaced vectors after a restart", async () => {
    setUp(250); // past the HNSW threshold, so the index is saved to disk
    const indexDir = path.join(temp.dir, "vector-index");
    const before = createTestVectorStore(store.sqlite, { indexDir });
    await createVectorizer({ sqlite: store.sqlite, embedder: model(0), vectors: before }).vectorizeUser(3);
    expect(before.search("test:model:8", unitVector(42), { userId: 3 }, 1)).toHaveLength(1);
    expect(before.persist()).toBe(1);

    const during = createTestVectorStore(store.sqlite, { indexDir });
    await expect(createVectorizer({ sqlite: store.sqlite, embedder: model(5000, 2), vectors: during }).revectorizeUser(3)).rejects.toThrow("killed");
    // The process dies here: no persist(). Chunk 42's vector is now the new model's.
    const restarted = createTestVectorStore(store.sqlite, { indexDir });
    const [hit] = restarted.search("test:model:8", unitVector(42 + 5000), { userId: 3 }, 1);
    const chunk42 = (store.sqlite.prepare("SELECT id FROM chunks WHERE content = 'chunk 42'").get() as { id: number }).id;
    expect(hit!.chunkId).toBe(chunk42);
  });

  it("a re-vectorise keeps the index it kept in step, so searches use the new vectors at once instead of waiting for a rebuild", async () => {
    setUp(TEST_VECTOR_LIMITS.syncBuildLimit + 100); // a rebuild at this size runs in the background and answers nothing at first
    const vectors = createTestVectorStore(store.sqlite, { indexDir: path.join(temp.dir, "vector-index") });
    await createVectorizer({ sqlite: store.sqlite, embedder: model(0), vectors }).vectorizeUser(3);
    await vectors.warm("test:model:8", 3);
    await createVectorizer({ sqlite: store.sqlite, embedder: model(9000), vectors }).revectorizeUser(3);
    const chunk42 = (store.sqlite.prepare("SELECT id FROM chunks WHERE content = 'chunk 42'").get() as { id: number }).id;
    expect(vectors.search("test:model:8", unitVector(42 + 9000), { userId: 3 }, 1)[0]).toEqual({ chunkId: chunk42, similarity: expect.closeTo(1, 5) });
  });
});
