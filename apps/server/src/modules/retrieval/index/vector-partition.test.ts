import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { unitVector } from "@sage/testkit/unit-vector";
import { newGraph } from "./vector-graph-file.ts";
import { mergeGraph } from "./vector-merge.ts";
import { TEST_VECTOR_LIMITS } from "./test-vector-limits.ts";
import { VectorPartition, type VectorSource } from "./vector-partition.ts";

const unit = unitVector;
const HNSW_THRESHOLD = TEST_VECTOR_LIMITS.hnswThreshold;
const load = (base: string, source: VectorSource) => VectorPartition.load(base, source, TEST_VECTOR_LIMITS);

/** A partition over a map that stands for the chunk_vectors table, where a large partition reads its float vectors. */
function tableAndPartition(dimensions = 16) {
  const table = new Map<number, Float32Array>();
  const source = (chunkIds: number[]) => new Map(chunkIds.flatMap((chunkId) => (table.has(chunkId) ? [[chunkId, table.get(chunkId)!] as const] : [])));
  const partition = new VectorPartition(dimensions, source, TEST_VECTOR_LIMITS);
  return {
    table,
    source,
    partition,
    /** Stores the vector as the vector store does: the table first, then the index. */
    put(chunkId: number, conversationId: number | null, vector: Float32Array) {
      table.set(chunkId, vector);
      partition.add(chunkId, conversationId, vector);
    },
  };
}

/** A partition of HNSW_THRESHOLD + 10 vectors saved to `base` in a temporary folder, removed after `work`. */
function withSavedPartition(
  work: (saved: ReturnType<typeof tableAndPartition> & { base: string; dir: string }) => void,
  conversationOf: (chunkId: number) => number | null = () => null,
) {
  const temp = makeTempDir();
  try {
    const base = path.join(temp.dir, "3-index");
    const saved = tableAndPartition();
    for (let id = 1; id <= HNSW_THRESHOLD + 10; id++) saved.put(id, conversationOf(id), unit(id));
    saved.partition.save(base);
    work({ ...saved, base, dir: temp.dir });
  } finally {
    temp.remove();
  }
}

describe("VectorPartition", () => {
  it("finds the nearest vector exactly while small and through HNSW once large, honouring removals and scope", () => {
    const { partition, put } = tableAndPartition();
    for (let id = 1; id <= HNSW_THRESHOLD + 50; id++) put(id, id % 10 === 0 ? 7 : null, unit(id));
    expect(partition.size).toBe(HNSW_THRESHOLD + 50);

    const [best] = partition.search(unit(123), {}, 5);
    expect(best!.chunkId).toBe(123);
    expect(best!.similarity).toBeCloseTo(1, 4);

    partition.remove(123);
    expect(partition.search(unit(123), {}, 5).map((hit) => hit.chunkId)).not.toContain(123);

    // Conversation 7 sees its own vectors plus the system ones; conversation 8 only the system ones.
    expect(partition.search(unit(120), { conversationId: 7 }, 1)[0]!.chunkId).toBe(120);
    expect(partition.search(unit(120), { conversationId: 8 }, 3).map((hit) => hit.chunkId)).not.toContain(120);
  });

  it("keeps an HNSW search to its scope, whether the scope is every member or only some", () => {
    const { partition, put } = tableAndPartition();
    // 500 system vectors and 100 of conversation 7: both scopes are too large for the exact search.
    for (let id = 1; id <= 600; id++) put(id, id > 500 ? 7 : null, unit(id));
    const systemOnly = partition.search(unit(550), { conversationId: null }, 10);
    expect(systemOnly).toHaveLength(10);
    expect(systemOnly.every((hit) => hit.chunkId <= 500)).toBe(true);
    expect(partition.search(unit(550), { conversationId: 7 }, 10).map((hit) => hit.chunkId)).toContain(550);
    expect(partition.search(unit(550), { conversationId: 8 }, 10).every((hit) => hit.chunkId <= 500)).toBe(true);
    // A conversation with no vectors of its own while every member is a system one: the whole partition, unfiltered.
    const { partition: systemPartition, put: putSystem } = tableAndPartition();
    for (let id = 1; id <= 500; id++) putSystem(id, null, unit(id));
    expect(systemPartition.search(unit(432), { conversationId: 9 }, 10).map((hit) => hit.chunkId)).toContain(432);
  });

  it("answers a narrow scope of an HNSW partition from the vectors as they are now, after replacements and removals", () => {
    const { partition, put } = tableAndPartition();
    for (let id = 1; id <= HNSW_THRESHOLD + 100; id++) put(id, id <= 50 ? 3 : null, unit(id));
    // Conversation 3's scope (every system vector plus its 50) is small enough for the exact search.
    expect(partition.search(unit(20), { conversationId: 3 }, 1)[0]!.chunkId).toBe(20);
    const opposite = unit(20).map((value) => -value);
    put(20, 3, opposite);
    expect(partition.search(unit(20), { conversationId: 3 }, 3).map((hit) => hit.chunkId)).not.toContain(20);
    const [replaced] = partition.search(opposite, { conversationId: 3 }, 1);
    expect(replaced).toEqual({ chunkId: 20, similarity: expect.closeTo(1, 4) });
    partition.remove(20);
    expect(partition.search(opposite, { conversationId: 3 }, 3).map((hit) => hit.chunkId)).not.toContain(20);
  });

  it("scores the ANN's candidates with the stored float vectors, and forgets a chunk the table no longer has", () => {
    const { partition, put, table } = tableAndPartition(64);
    for (let id = 1; id <= HNSW_THRESHOLD * 2; id++) put(id, null, unit(id, 64));
    // The int8 graph only proposes: the similarity given is the float vectors' own, so the best match scores 1.
    const [best] = partition.search(unit(321, 64), {}, 3);
    expect(best).toEqual({ chunkId: 321, similarity: expect.closeTo(1, 5) });
    // Deleted from the table behind the index's back (an FK cascade): never returned, and dropped from the index.
    table.delete(123);
    expect(partition.search(unit(123, 64), {}, 5).map((hit) => hit.chunkId)).not.toContain(123);
    expect(partition.has(123)).toBe(false);
    expect(partition.size).toBe(HNSW_THRESHOLD * 2 - 1);
  });

  it("saves an HNSW partition and reads it back searchable, replacing a float32 graph an older version saved", () => {
    const temp = makeTempDir();
    try {
      const base = path.join(temp.dir, "3-index");
      writeFileSync(`${base}.hnsw`, "an hnswlib graph from before decision 050");
      const { partition, put, source } = tableAndPartition();
      for (let id = 1; id <= HNSW_THRESHOLD + 10; id++) put(id, id === 7 ? 4 : null, unit(id));
      expect(partition.save(base)).toBe(true);
      expect(partition.save(base)).toBe(false); // unchanged since
      expect(existsSync(`${base}.hnsw`)).toBe(false);
      const read = load(base, source)!;
      expect(read.summary()).toEqual(partition.summary());
      expect(read.search(unit(150), {}, 1)[0]!.chunkId).toBe(150);
      expect(read.search(unit(7), { conversationId: 4 }, 1)[0]!.chunkId).toBe(7);
      expect(read.search(unit(7), { conversationId: 5 }, 3).map((hit) => hit.chunkId)).not.toContain(7);
      expect(load(path.join(temp.dir, "missing"), source)).toBeNull();
      // usearch crashes the process on a damaged graph: one that differs from what was saved is never handed to it.
      const graph = readFileSync(`${base}.usearch`);
      const middle = graph.length >> 1;
      graph.writeUInt8(graph.readUInt8(middle) ^ 0xff, middle);
      writeFileSync(`${base}.usearch`, graph);
      expect(load(base, source)).toBeNull();
      writeFileSync(`${base}.usearch`, graph.subarray(0, graph.length >> 1));
      expect(load(base, source)).toBeNull();
    } finally {
      temp.remove();
    }
  });

  it("reads a saved graph back as it is on disk and saves only what was added since, beside it", () => {
    withSavedPartition(({ table, source, base, dir }) => {
      const graph = readFileSync(`${base}.usearch`);

      const read = load(base, source)!;
      for (let id = 5001; id <= 5100; id++) {
        table.set(id, unit(id));
        read.add(id, id === 5050 ? 9 : null, unit(id));
      }
      read.remove(150);
      table.delete(150);
      expect(read.search(unit(5020), {}, 1)[0]!.chunkId).toBe(5020);
      expect(read.search(unit(150), {}, 5).map((hit) => hit.chunkId)).not.toContain(150);
      expect(read.save(base)).toBe(true);
      // The graph on disk is untouched: a million vectors' gigabyte is not rewritten for a hundred additions.
      expect(readFileSync(`${base}.usearch`).equals(graph)).toBe(true);
      const deltaFile = path.join(
        dir,
        readdirSync(dir).find((name) => /^3-index\.delta-\w+-0\.usearch$/.test(name))!,
      );

      const again = load(base, source)!;
      expect(again.summary()).toEqual(read.summary());
      expect(again.search(unit(5020), {}, 1)[0]!.chunkId).toBe(5020);
      expect(again.search(unit(70), {}, 1)[0]!.chunkId).toBe(70);
      expect(again.search(unit(5050), { conversationId: 9 }, 1)[0]!.chunkId).toBe(5050);
      expect(again.search(unit(5050), { conversationId: 8 }, 3).map((hit) => hit.chunkId)).not.toContain(5050);
      expect(again.search(unit(150), {}, 5).map((hit) => hit.chunkId)).not.toContain(150);

      // A damaged delta is left out with its members, which the vector store then adds again from the table.
      const delta = readFileSync(deltaFile);
      delta.writeUInt8(delta.readUInt8(delta.length >> 1) ^ 0xff, delta.length >> 1);
      writeFileSync(deltaFile, delta);
      const withoutDelta = load(base, source)!;
      expect(withoutDelta.size).toBe(HNSW_THRESHOLD + 10 - 1);
      expect(withoutDelta.has(5020)).toBe(false);
      expect(withoutDelta.search(unit(70), {}, 1)[0]!.chunkId).toBe(70);
    });
  });

  it("saves a read-back partition whole again when its graph was deleted from disk meanwhile", () => {
    withSavedPartition(({ table, source, base }) => {
      const read = load(base, source)!;
      rmSync(`${base}.usearch`);
      rmSync(`${base}.json`);
      table.set(9000, unit(9000));
      read.add(9000, null, unit(9000));
      expect(read.save(base)).toBe(true);
      const again = load(base, source)!;
      expect(again.size).toBe(HNSW_THRESHOLD + 11);
      expect(again.search(unit(42), {}, 1)[0]!.chunkId).toBe(42);
      expect(again.search(unit(9000), {}, 1)[0]!.chunkId).toBe(9000);
    });
  });

  it("reads back a partition saved with members listed as JSON pairs (before decision 052)", () => {
    withSavedPartition(
      ({ partition, source, base }) => {
        const meta = JSON.parse(readFileSync(`${base}.json`, "utf8")) as { graph: unknown };
        const members = [...Array(HNSW_THRESHOLD + 10).keys()].map((index) => [index + 1, index + 1 === 7 ? 4 : null]);
        writeFileSync(`${base}.json`, JSON.stringify({ dimensions: 16, graph: meta.graph, members }));
        const read = load(base, source)!;
        expect(read.summary()).toEqual(partition.summary());
        expect(read.search(unit(7), { conversationId: 4 }, 1)[0]!.chunkId).toBe(7);
        expect(statSync(`${base}.usearch`).size).toBeGreaterThan(0);
      },
      (id) => (id === 7 ? 4 : null),
    );
  });

  it("merges the vectors added and removed beside a read-back graph into a new graph, while changes go on", () => {
    withSavedPartition(({ table, source, base, dir }) => {
      const read = load(base, source)!;
      const putRead = (id: number) => {
        table.set(id, unit(id));
        read.add(id, null, unit(id));
      };
      const drop = (id: number) => {
        table.delete(id);
        read.remove(id);
      };
      for (let id = 10_001; id <= 10_060; id++) putRead(id);
      drop(5);
      drop(10_005);
      expect(read.mergeDue(100)).toBe(false);
      expect(read.mergeDue(50)).toBe(true);

      const job = read.beginMerge(base);
      expect(read.mergeDue(50)).toBe(false); // one merge at a time
      // Meanwhile: an addition, a removal from the saved graph and one from what is being merged.
      putRead(20_001);
      drop(6);
      drop(10_006);
      read.finishMerge(mergeGraph(job, source));

      const found = (partitionToAsk: VectorPartition, id: number) => partitionToAsk.search(unit(id), {}, 1)[0]?.chunkId;
      for (const id of [7, 199, 10_001, 10_060, 20_001]) expect(found(read, id)).toBe(id);
      for (const id of [5, 6, 10_005, 10_006]) expect(found(read, id)).not.toBe(id);

      expect(read.save(base)).toBe(true);
      // The graph saved first is merged away; the merged one and the one addition since are what is on disk.
      const files = readdirSync(dir).filter((name) => name.endsWith(".usearch"));
      expect(files).not.toContain("3-index.usearch");
      expect(files.filter((name) => /^3-index\.g\w+\.usearch$/.test(name))).toHaveLength(1);
      expect(files.filter((name) => /^3-index\.delta-\w+-0\.usearch$/.test(name))).toHaveLength(1);
      // The merged graph itself holds the additions and none of what was removed before or during the merge.
      const merged = newGraph(16);
      merged.load(
        path.join(
          dir,
          files.find((name) => name.startsWith("3-index.g"))!,
        ),
      );
      expect([7, 10_001, 10_060].map((id) => merged.contains(BigInt(id)))).toEqual([true, true, true]);
      expect([5, 10_005].map((id) => merged.contains(BigInt(id)))).toEqual([false, false]);
      expect(merged.contains(20_001n)).toBe(false); // added during the merge: in the delta saved beside it

      const again = load(base, source)!;
      expect(again.summary()).toEqual(read.summary());
      for (const id of [7, 10_030, 20_001]) expect(found(again, id)).toBe(id);
      for (const id of [5, 6, 10_005, 10_006]) expect(found(again, id)).not.toBe(id);
    });
  });

  it("keeps searching everything after a save that failed, and the next save writes it all", () => {
    const temp = makeTempDir();
    try {
      const { partition, put, source } = tableAndPartition();
      for (let id = 1; id <= HNSW_THRESHOLD + 10; id++) put(id, null, unit(id));
      expect(() => partition.save(path.join(temp.dir, "missing-folder", "3-index"))).toThrow();
      expect(partition.search(unit(42), {}, 1)[0]!.chunkId).toBe(42);
      put(9000, null, unit(9000));
      const base = path.join(temp.dir, "3-index");
      expect(partition.save(base)).toBe(true);
      const read = load(base, source)!;
      expect(read.search(unit(42), {}, 1)[0]!.chunkId).toBe(42);
      expect(read.search(unit(9000), {}, 1)[0]!.chunkId).toBe(9000);
    } finally {
      temp.remove();
    }
  });
});
