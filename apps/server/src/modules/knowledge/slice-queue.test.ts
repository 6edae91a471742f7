import { describe, expect, it } from "vitest";
import { SliceQueue } from "./slice-queue.ts";

async function drain<T>(queue: SliceQueue<T>): Promise<T[][]> {
  const seen: T[][] = [];
  for await (const slice of queue) seen.push(slice);
  return seen;
}

describe("slice queue", () => {
  it("hands slices over in order as they are pushed, and ends when the reader ends", async () => {
    const queue = new SliceQueue<number>();
    queue.push([1, 2]);
    const seen = drain(queue);
    await new Promise((resolve) => setImmediate(resolve));
    queue.push([]);
    queue.push([3]);
    queue.end();
    queue.push([4]); // after the end: ignored
    expect(await seen).toEqual([[1, 2], [3]]);
  });

  it("throws what the reader failed with, even with slices still waiting", async () => {
    const queue = new SliceQueue<number>();
    queue.push([1]);
    queue.fail(new Error("The document took too long to process"));
    await expect(drain(queue)).rejects.toThrow("The document took too long to process");
  });
});
