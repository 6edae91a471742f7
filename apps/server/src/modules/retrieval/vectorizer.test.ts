import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import { openStore, type Store } from "../../store/open-store.ts";
import { insertKnowledge } from "./test-knowledge.ts";
import { createVectorStore } from "./vector-store.ts";
import { createVectorizer } from "./vectorizer.ts";

let store: Store;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await store.close();
  temp.remove();
});

/** An embedder of 4 dimensions that records its calls and can fail on a given call. */
function scriptedEmbedder(options: { failOnCall?: number; delayMs?: number } = {}) {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const embedder: Embedder = {
    id: "test:scripted:4",
    dimensions: 4,
    maxBatch: 10,
    async embed(texts) {
      calls.push(texts);
      const call = calls.length;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 5));
      inFlight -= 1;
      if (call === options.failOnCall) throw new Error("embedder unavailable");
      return texts.map((_, index) => [1, index % 3, 0.5, 0.25]);
    },
  };
  return { embedder, calls, maxInFlight: () => maxInFlight };
}

function setUp(chunks: number) {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  insertKnowledge(store.sqlite, { userId: 3, name: "plan.txt", chunks: Array.from({ length: chunks }, (_, index) => `chunk ${index}`) });
}

const vectorCount = () => (store.sqlite.prepare("SELECT count(*) AS n FROM chunk_vectors").get() as { n: number }).n;

describe("vectorizer", () => {
  it("embeds every chunk once, in batches no larger than the embedder allows, with the next batch requested while one is stored", async () => {
    setUp(35);
    const fake = scriptedEmbedder();
    const vectorizer = createVectorizer({ sqlite: store.sqlite, embedder: fake.embedder, vectors: createVectorStore(store.sqlite) });
    const progress: number[] = [];
    expect(await vectorizer.revectorizeUser(3, async (processed) => void progress.push(processed))).toBe(35);
    expect(fake.calls.map((texts) => texts.length)).toEqual([10, 10, 10, 5]);
    expect(new Set(fake.calls.flat()).size).toBe(35);
    expect(vectorCount()).toBe(35);
    expect(progress).toEqual([0, 10, 20, 30, 35]);
    expect(fake.maxInFlight()).toBe(2);
  });

  it("a failing embedder call fails the run cleanly: what was stored stays, nothing is left unhandled", async () => {
    setUp(35);
    const fake = scriptedEmbedder({ failOnCall: 2 });
    const vectorizer = createVectorizer({ sqlite: store.sqlite, embedder: fake.embedder, vectors: createVectorStore(store.sqlite) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      await expect(vectorizer.vectorizeUser(3)).rejects.toThrow("embedder unavailable");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(vectorCount()).toBe(10);
      // A later run picks up only what is missing.
      const retry = createVectorizer({ sqlite: store.sqlite, embedder: scriptedEmbedder().embedder, vectors: createVectorStore(store.sqlite) });
      expect(await retry.vectorizeUser(3)).toBe(25);
      expect(vectorCount()).toBe(35);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
