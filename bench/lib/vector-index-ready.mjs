// Getting a bench store's vector indexes ready: built once in child processes, then waited for in the server.
import { spawn } from "node:child_process";
import path from "node:path";
import { VECTOR_PROBE } from "./corpus.mjs";
import { savedIndexFor } from "./search-limit.mjs";
import { ROOT } from "./server.mjs";

/**
 * Builds the missing HNSW indexes of a store in child processes, all at once: one core each instead of one
 * after another in the bench's process (the first run on a machine: minutes at 100k chunks).
 */
export async function buildMissingIndexes(dataDir, dimensions) {
  const missing = dimensions.filter((size) => !savedIndexFor(dataDir, size));
  await Promise.all(
    missing.map(
      (size) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/lib/warm-index.mjs"), dataDir, String(size)], {
            stdio: ["ignore", "inherit", "inherit"],
          });
          child.once("error", reject);
          child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`building the ${size}-dim index exited ${code}`))));
        }),
    ),
  );
}

/** Polls a search only the vector index can answer until it does: the server loads its index in the background. */
export async function waitForVectorIndex(searchOnce, timeoutMs = 900_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await searchOnce(VECTOR_PROBE)).length > 0) return;
    if (Date.now() > deadline) throw new Error("the server's vector index never answered");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
