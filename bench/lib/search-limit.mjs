// The retrieval service run in the bench's own process on a cached search store, and the "limit" beside it:
// the bare ANN query (hnswlib searchKnn on the very index the service built) plus the bare FTS5 query.
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./server.mjs";
import { embedText } from "./corpus.mjs";
import { DEMO_USER_ID, EMBEDDERS } from "./search-store.mjs";

const serverSrc = path.join(ROOT, "apps/server/src");
const requireFromServer = createRequire(path.join(serverSrc, "modules/retrieval/vector-partition.ts"));

/** Records every HNSW index created from now on (the service builds its index lazily, on first search). */
function captureHnswIndexes() {
  const addon = requireFromServer("hnswlib-node");
  const Original = addon.HierarchicalNSW;
  const created = [];
  // The addon's prototype is read-only, so the class itself is swapped for a recording subclass meanwhile.
  const Recording = class extends Original {
    constructor(...args) {
      super(...args);
      created.push(this);
    }
  };
  Object.defineProperty(addon, "HierarchicalNSW", { value: Recording, writable: true, configurable: true });
  return { created, restore: () => Object.defineProperty(addon, "HierarchicalNSW", { value: Original, writable: true, configurable: true }) };
}

/** Opens the store with the server's own modules (under tsx) and an in-process model matching the seeded vectors. */
export async function openInProcess(dataDir, dimensions) {
  const { openStore } = await import(path.join(serverSrc, "store/open-store.ts"));
  const { createRetrievalService } = await import(path.join(serverSrc, "modules/retrieval/retrieval.service.ts"));
  const { createVectorStore } = await import(path.join(serverSrc, "modules/retrieval/vector-store.ts"));
  const { queryTerms, ftsOrQuery } = await import(path.join(serverSrc, "modules/retrieval/query-terms.ts"));
  const store = openStore({ dataDir });
  const embedder = {
    id: EMBEDDERS[dimensions].id,
    dimensions,
    maxBatch: 100,
    embed: async (texts) => texts.map((text) => Array.from(embedText(text, dimensions))),
  };
  // The server's own index folder: an index saved by an earlier server run is read back, as the server would.
  const vectors = createVectorStore(store.sqlite, { indexDir: path.join(dataDir, "vector-index") });
  const service = createRetrievalService({ sqlite: store.sqlite, embedder, vectors });
  const bareFts = store.sqlite.prepare("SELECT rowid, bm25(chunks_fts, 2, 1) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?");

  let index = null;
  /** The first search builds the service's index; its time is reported as the cold first query. */
  async function warm(query) {
    const capture = captureHnswIndexes();
    const startedAt = performance.now();
    await service.search({ userId: DEMO_USER_ID, query, limit: 5 });
    const ms = performance.now() - startedAt;
    capture.restore();
    index = capture.created.at(-1) ?? null;
    if (!index) throw new Error("the service made no HNSW index (is the store below the HNSW threshold?)");
    return ms;
  }

  /** Bare ANN + bare FTS5 for one query with `candidates` hits each, as the service asks its indexes for. */
  function bare(query, candidates) {
    const vector = Array.from(embedText(query.trim(), dimensions));
    const match = ftsOrQuery(queryTerms(query));
    const annStart = performance.now();
    index.setEf(Math.max(64, candidates * 2));
    index.searchKnn(vector, candidates);
    const annMs = performance.now() - annStart;
    const ftsStart = performance.now();
    bareFts.all(match, candidates);
    const ftsMs = performance.now() - ftsStart;
    return { annMs, ftsMs, totalMs: annMs + ftsMs };
  }

  return {
    service,
    warm,
    bare,
    search: (query) => service.search({ userId: DEMO_USER_ID, query, limit: 5 }),
    recommend: (queryText) => service.recommend({ userId: DEMO_USER_ID, queryText, limit: 5 }),
    close: () => store.close(),
  };
}

/**
 * For stores too large to build the service's index twice in one run: a bare HNSW index with the service's
 * parameters (inner product, M 16, efConstruction 100) over the same vectors, cached beside the store, and the
 * bare FTS5 query on the same store.
 */
export async function openBareLimit(dataDir, dimensions) {
  const { existsSync } = await import("node:fs");
  const { openStore } = await import(path.join(serverSrc, "store/open-store.ts"));
  const { queryTerms, ftsOrQuery } = await import(path.join(serverSrc, "modules/retrieval/query-terms.ts"));
  const { HierarchicalNSW } = requireFromServer("hnswlib-node");
  const store = openStore({ dataDir });
  const file = path.join(dataDir, `bare-hnsw-${dimensions}.bin`);
  const index = new HierarchicalNSW("ip", dimensions);
  if (existsSync(file)) index.readIndexSync(file, true);
  else {
    const startedAt = performance.now();
    const rows = store.sqlite.prepare("SELECT chunk_id AS id, vector FROM chunk_vectors WHERE embedder_id = ? AND user_id = ?").all(EMBEDDERS[dimensions].id, DEMO_USER_ID);
    index.initIndex({ maxElements: rows.length, m: 16, efConstruction: 100, allowReplaceDeleted: true });
    for (const row of rows) index.addPoint(Array.from(new Float32Array(row.vector.buffer, row.vector.byteOffset, dimensions)), row.id, true);
    index.writeIndexSync(file);
    console.error(`# built the bare ${dimensions}-d index of ${rows.length} vectors in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  }
  const bareFts = store.sqlite.prepare("SELECT rowid, bm25(chunks_fts, 2, 1) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?");
  return {
    bare(query, candidates) {
      const vector = Array.from(embedText(query.trim(), dimensions));
      const match = ftsOrQuery(queryTerms(query));
      const annStart = performance.now();
      index.setEf(Math.max(64, candidates * 2));
      index.searchKnn(vector, candidates);
      const annMs = performance.now() - annStart;
      const ftsStart = performance.now();
      bareFts.all(match, candidates);
      const ftsMs = performance.now() - ftsStart;
      return { annMs, ftsMs, totalMs: annMs + ftsMs };
    },
    close: () => store.close(),
  };
}
