// Runs in a worker thread (vector-store.ts starts it): merges a partition's graphs into a new file with its own
// read-only connection to the store, and answers the file's length and checksum.
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import type { MergeJob } from "./vector-graphs.ts";
import { mergeGraph } from "./vector-merge.ts";

export interface MergeThreadData {
  job: MergeJob;
  databaseFile: string;
  embedderId: string;
}

const { job, databaseFile, embedderId } = workerData as MergeThreadData;
const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
const floatsOf = db.prepare("SELECT chunk_id AS chunkId, vector FROM chunk_vectors WHERE embedder_id = ? AND chunk_id IN (SELECT value FROM json_each(?))");
try {
  const graph = mergeGraph(job, (chunkIds) => {
    const rows = floatsOf.all(embedderId, JSON.stringify(chunkIds)) as { chunkId: number; vector: Buffer }[];
    return new Map(
      rows.map((row) => [row.chunkId, new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength))]),
    );
  });
  parentPort!.postMessage({ graph });
} finally {
  db.close();
}
