/**
 * Retrieval at scale (docs/retrieval.md): 100k chunks seeded like the bench harness plus random 384-d vectors,
 * then lexical, vector and hybrid search latencies, index build/save/load times and RSS. `npx tsx bench/retrieval-scale.ts`
 */
import { makeTempDir } from "../packages/testkit/src/temp-dir.ts";
import { openStore } from "../apps/server/src/store/open-store.ts";
import { benchRetrieval } from "./lib/retrieval-service.ts";
import { createVectorStore } from "../apps/server/src/modules/retrieval/index/vector-store.ts";
import { seedChunks, rng, sentence } from "./lib/seed-chunks.mjs";
import type { Embedder } from "../apps/server/src/providers/embedder/embedder.ts";
const D = 384;
const temp = makeTempDir();
let store = openStore({ dataDir: temp.dir });
store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
await store.close();
store.sqlite.close();
seedChunks(temp.dir, { files: 1000, chunksPerFile: 100 });
store = openStore({ dataDir: temp.dir });
const random = rng(11);
const unit = () => {
  const v = Array.from({ length: D }, () => random() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const embedder: Embedder = { id: "bench:random:384", dimensions: D, maxBatch: 64, embed: async (texts) => texts.map(() => unit()) };
const ids = (store.sqlite.prepare("SELECT id FROM chunks ORDER BY id").all() as { id: number }[]).map((r) => r.id);
const now = new Date().toISOString();
const ins = store.sqlite.prepare(
  "INSERT INTO chunk_vectors (chunk_id, embedder_id, dimensions, user_id, conversation_id, vector, created_at) VALUES (?, ?, ?, 3, NULL, ?, ?)",
);
store.sqlite.transaction(() => {
  for (const id of ids) ins.run(id, embedder.id, D, Buffer.from(Float32Array.from(unit()).buffer), now);
})();
const vectors = createVectorStore(store.sqlite, { indexDir: `${temp.dir}/vector-index` });
let t0 = performance.now();
await vectors.warm(embedder.id, 3);
console.log("HNSW build in the background (warm)", ((performance.now() - t0) / 1000).toFixed(1), "s");
const service = benchRetrieval(store.sqlite, { embedder, vectors });
const queries = Array.from({ length: 60 }, () => sentence(random, 3 + Math.floor(random() * 5)));
for (const [name, svc] of [
  ["hybrid", service],
  ["lexical", benchRetrieval(store.sqlite)],
] as const) {
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await svc.searchChunks(q, { userId: 3 }, 5);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(name, "100k p50", times[30].toFixed(1), "p95", times[57].toFixed(1));
}
const vt: number[] = [];
for (let i = 0; i < 60; i++) {
  const t = performance.now();
  vectors.search(embedder.id, unit(), { userId: 3 }, 20);
  vt.push(performance.now() - t);
}
vt.sort((a, b) => a - b);
console.log("vector only p50", vt[30].toFixed(2), "p95", vt[57].toFixed(2));
t0 = performance.now();
vectors.persist();
console.log("persist", (performance.now() - t0).toFixed(0), "ms");
const again = createVectorStore(store.sqlite, { indexDir: `${temp.dir}/vector-index` });
t0 = performance.now();
again.search(embedder.id, unit(), { userId: 3 }, 5);
console.log("load saved + first query", (performance.now() - t0).toFixed(0), "ms");
console.log("rss MB", (process.memoryUsage().rss / 1e6).toFixed(0));
await store.close();
temp.remove();
