import { describe, expect, it } from "vitest";
import { HNSW_THRESHOLD, VectorPartition } from "./vector-partition.ts";

function unit(seed: number, dimensions = 16): Float32Array {
  const vector = new Float32Array(dimensions);
  let state = seed * 2654435761;
  for (let index = 0; index < dimensions; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    vector[index] = state / 2147483648 - 0.5;
  }
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

describe("VectorPartition", () => {
  it("finds the nearest vector exactly while small and through HNSW once large, honouring removals and scope", () => {
    const partition = new VectorPartition(16);
    for (let id = 1; id <= HNSW_THRESHOLD + 500; id++) partition.add(id, id % 10 === 0 ? 7 : null, unit(id));
    expect(partition.size).toBe(HNSW_THRESHOLD + 500);

    const [best] = partition.search(unit(1234), {}, 5);
    expect(best!.chunkId).toBe(1234);
    expect(best!.similarity).toBeCloseTo(1, 4);

    partition.remove(1234);
    expect(partition.search(unit(1234), {}, 5).map((hit) => hit.chunkId)).not.toContain(1234);

    // Conversation 7 sees its own vectors plus the system ones; conversation 8 only the system ones.
    expect(partition.search(unit(1230), { conversationId: 7 }, 1)[0]!.chunkId).toBe(1230);
    expect(partition.search(unit(1230), { conversationId: 8 }, 3).map((hit) => hit.chunkId)).not.toContain(1230);
  });

  it("keeps an HNSW search to its scope, whether the scope is every member or only some", () => {
    const partition = new VectorPartition(16);
    // 5,000 system vectors and 1,000 of conversation 7: both scopes are too large for the exact search.
    for (let id = 1; id <= 6000; id++) partition.add(id, id > 5000 ? 7 : null, unit(id));
    const systemOnly = partition.search(unit(5500), { conversationId: null }, 10);
    expect(systemOnly).toHaveLength(10);
    expect(systemOnly.every((hit) => hit.chunkId <= 5000)).toBe(true);
    expect(partition.search(unit(5500), { conversationId: 7 }, 10).map((hit) => hit.chunkId)).toContain(5500);
    expect(partition.search(unit(5500), { conversationId: 8 }, 10).every((hit) => hit.chunkId <= 5000)).toBe(true);
    // A conversation with no vectors of its own while every member is a system one: the whole partition, unfiltered.
    const systemPartition = new VectorPartition(16);
    for (let id = 1; id <= 5000; id++) systemPartition.add(id, null, unit(id));
    expect(systemPartition.search(unit(4321), { conversationId: 9 }, 10).map((hit) => hit.chunkId)).toContain(4321);
  });

  it("answers a narrow scope of an HNSW partition from the vectors as they are now, after replacements and removals", () => {
    const partition = new VectorPartition(16);
    for (let id = 1; id <= HNSW_THRESHOLD + 100; id++) partition.add(id, id <= 50 ? 3 : null, unit(id));
    // Conversation 3's scope (every system vector plus its 50) is small enough for the exact search.
    expect(partition.search(unit(20), { conversationId: 3 }, 1)[0]!.chunkId).toBe(20);
    const opposite = unit(20).map((value) => -value);
    partition.add(20, 3, opposite);
    expect(partition.search(unit(20), { conversationId: 3 }, 3).map((hit) => hit.chunkId)).not.toContain(20);
    const [replaced] = partition.search(opposite, { conversationId: 3 }, 1);
    expect(replaced).toEqual({ chunkId: 20, similarity: expect.closeTo(1, 4) });
    partition.remove(20);
    expect(partition.search(opposite, { conversationId: 3 }, 3).map((hit) => hit.chunkId)).not.toContain(20);
  });
});
