import { cpSync, rmSync } from "node:fs";
import { makeDataDir } from "../lib/server.mjs";
import { searchStore } from "../lib/search-store.mjs";
import { ingestTxt } from "./ingest-txt.mjs";

/**
 * `ingest-txt` into a store that already holds a million chunks (search-1m's cached store, copied: the jobs write to
 * it), against the same index floor, a fresh store (issue 34: within 0.5 of it, as into an empty store). The user's
 * full-text table holds the million chunks, so each job's segments merge into a large index.
 */
export async function ingest1m({ quick }) {
  const source = await searchStore({ files: 100_000, chunksPerFile: 10, dimensions: [768] });
  const dataDir = makeDataDir("ingest-1m");
  const startedAt = performance.now();
  cpSync(source, dataDir, { recursive: true });
  console.error(`# copied the million-chunk store in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  try {
    return await ingestTxt({ quick, dataDir, tag: ".1m" });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
