// Child process of the search scenario: builds the HNSW index of one embedder on a cached search store and saves
// it where the server reads it back. Run one per embedder side by side, the first run's builds take the
// longest of them instead of their sum (`node --import tsx bench/lib/warm-index.mjs <dataDir> <dimensions>`).
import { openInProcess } from "./search-limit.mjs";

const [dataDir, dimensions] = process.argv.slice(2);
const local = await openInProcess(dataDir, Number(dimensions));
const { ms } = await local.warm();
await local.close();
console.error(`# built the ${dimensions}-dim HNSW index of ${dataDir} in ${(ms / 1000).toFixed(1)} s`);
