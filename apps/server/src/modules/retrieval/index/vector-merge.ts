import type { MergeJob } from "./vector-graphs.ts";
import { newGraph, writeGraph, type GraphFile } from "./vector-graph-file.ts";

const PAGE = 500;

/**
 * A merge thread's work (vector-merge-thread.entry.ts): the mapped graph read into memory, its stale members removed,
 * the added ones inserted with their float vectors from the table (a chunk gone from it meanwhile is left out), and
 * the result written to `job.out`. Minutes of one core at a million vectors, none of them on the server's thread.
 */
export function mergeGraph(job: MergeJob, readVectors: (chunkIds: number[]) => Map<number, Float32Array>): GraphFile {
  const index = newGraph(job.dimensions);
  index.load(job.baseFile);
  for (const chunkId of job.stale) if (index.contains(BigInt(chunkId))) index.remove(BigInt(chunkId));
  for (let at = 0; at < job.added.length; at += PAGE) {
    const page = job.added.slice(at, at + PAGE);
    const vectors = readVectors(page);
    for (const chunkId of page) {
      const vector = vectors.get(chunkId);
      if (!vector) continue;
      if (index.contains(BigInt(chunkId))) index.remove(BigInt(chunkId));
      index.add(BigInt(chunkId), vector);
    }
  }
  return writeGraph(index, job.out);
}
