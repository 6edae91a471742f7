import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { unitVector } from "@sage/testkit/unit-vector";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createVectorStore, type VectorStore } from "./vector-store.ts";

let store: Store;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await store.close();
  temp.remove();
});

const vectorFor = (seed: number) => Array.from(unitVector(seed, 8));

/** A store whose 3,000 vectors of user 3 were indexed and saved; `chunks` adds more chunks (not yet their vectors). */
async function savedGraph() {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  const indexDir = path.join(temp.dir, "vector-index");
  const chunks = (name: string, count: number) =>
    insertKnowledge(store.sqlite, { userId: 3, name, chunks: Array.from({ length: count }, (_, index) => `${name} ${index}`) }).chunkIds;
  const rows = (chunkIds: number[]) => chunkIds.map((chunkId) => ({ chunkId, userId: 3, conversationId: null, vector: vectorFor(chunkId) }));
  const first = createVectorStore(store.sqlite, { indexDir });
  const old = chunks("old.txt", 3000);
  first.upsert("test:8", rows(old));
  await first.warm("test:8", 3);
  expect(first.persist()).toBe(1);
  const top = (vectors: VectorStore, chunkId: number) => vectors.search("test:8", vectorFor(chunkId), { userId: 3 }, 1)[0]?.chunkId;
  return { indexDir, old, chunks, rows, top };
}

describe("vector store merges", () => {
  it("merges what was added beside a read-back graph in a worker thread, answering throughout, and reads the result back", async () => {
    const { indexDir, old, chunks, rows, top } = await savedGraph();
    // Restarted: the saved graph is mapped; 1,000 additions pass a fifth of it and the merge minimum set here.
    const restarted = createVectorStore(store.sqlite, { indexDir, mergeMinimum: 500 });
    await restarted.warm("test:8", 3);
    const added = chunks("new.txt", 1000);
    restarted.upsert("test:8", rows(added));
    expect(top(restarted, added[500]!)).toBe(added[500]); // as the merge starts, from the graph beside the mapped one
    await restarted.mergesDone();

    const graphs = readdirSync(indexDir).filter((name) => name.endsWith(".usearch"));
    expect(graphs).toHaveLength(1);
    expect(graphs[0]).toMatch(/\.g\w+\.usearch$/);
    expect(top(restarted, added[999]!)).toBe(added[999]);
    expect(top(restarted, old[1234]!)).toBe(old[1234]);
    // Saved when the merge was taken in: nothing is left to write at shutdown, and the next start reads it back.
    expect(restarted.persist()).toBe(0);
    const again = createVectorStore(store.sqlite, { indexDir });
    expect(top(again, added[10]!)).toBe(added[10]);
    expect(top(again, old[10]!)).toBe(old[10]);
  });

  it("stops a running merge at shutdown and saves the graphs as they are", async () => {
    const { indexDir, old, chunks, rows, top } = await savedGraph();
    const restarted = createVectorStore(store.sqlite, { indexDir, mergeMinimum: 500 });
    await restarted.warm("test:8", 3);
    const added = chunks("new.txt", 1000);
    restarted.upsert("test:8", rows(added));
    expect(restarted.mergesRunning()).toBe(1);
    await restarted.stopMerges();
    expect(restarted.persist()).toBe(1);
    expect(readdirSync(indexDir).filter((name) => name.includes(".g"))).toEqual([]);

    const again = createVectorStore(store.sqlite, { indexDir });
    expect(top(again, added[321]!)).toBe(added[321]);
    expect(top(again, old[321]!)).toBe(old[321]);
  });

  it("a merge that fails is said once and not tried again at every addition; searches go on as they were", async () => {
    const { indexDir, old, chunks, rows, top } = await savedGraph();
    const said: string[] = [];
    const restarted = createVectorStore(store.sqlite, { indexDir, mergeMinimum: 500, log: (message) => said.push(message) });
    await restarted.warm("test:8", 3);
    // The mapped graph's file goes (the mapping itself stays readable): the merge thread cannot load it.
    for (const name of readdirSync(indexDir).filter((file) => file.endsWith(".usearch"))) rmSync(path.join(indexDir, name));
    const added = chunks("new.txt", 1000);
    restarted.upsert("test:8", rows(added));
    expect(restarted.mergesRunning()).toBe(1);
    await restarted.mergesDone();
    expect(said).toEqual(["could not merge the vector index; it keeps answering as it was"]);
    restarted.upsert("test:8", rows(chunks("more.txt", 10)));
    expect(restarted.mergesRunning()).toBe(0);
    expect(top(restarted, old[77]!)).toBe(old[77]);
    expect(top(restarted, added[77]!)).toBe(added[77]);
  });
});
