// The retrieval service run in the bench's own process on a cached search store, and the "limit" beside it:
// the bare ANN query (hnswlib searchKnn on the very index the service loaded) plus the bare FTS5 query.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./server.mjs";
import { embedText } from "./corpus.mjs";
import { DEMO_USER_ID, EMBEDDERS } from "./search-store.mjs";

const serverSrc = path.join(ROOT, "apps/server/src");
const requireFromServer = createRequire(path.join(serverSrc, "modules/retrieval/index/vector-partition.ts"));

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

/** Whether a server run saved an index of this size in the store's vector-index folder (read back on start). */
export function savedIndexFor(dataDir, dimensions) {
  const dir = path.join(dataDir, "vector-index");
  if (!existsSync(dir)) return false;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .some((name) => readFileSync(path.join(dir, name), "utf8").slice(0, 40).includes(`"dimensions":${dimensions},`));
}

/** Opens the store with the server's own modules (under tsx) and an in-process model matching the seeded vectors. */
export async function openInProcess(dataDir, dimensions) {
  const { openStore } = await import(path.join(serverSrc, "store/open-store.ts"));
  const { benchRetrieval } = await import(path.join(ROOT, "bench/lib/retrieval-service.ts"));
  const { createVectorStore } = await import(path.join(serverSrc, "modules/retrieval/index/vector-store.ts"));
  const { queryTerms, ftsOrQuery } = await import(path.join(serverSrc, "modules/retrieval/index/query-terms.ts"));
  const { lexicalTable } = await import(path.join(serverSrc, "modules/retrieval/index/lexical-index.ts"));
  const store = openStore({ dataDir });
  const embedder = {
    id: EMBEDDERS[dimensions].id,
    dimensions,
    maxBatch: 100,
    embed: async (texts) => texts.map((text) => Array.from(embedText(text, dimensions))),
  };
  // The server's own index folder: an index saved by an earlier server run is read back, as the server would.
  const indexDir = path.join(dataDir, "vector-index");
  const vectors = createVectorStore(store.sqlite, { indexDir });
  const service = benchRetrieval(store.sqlite, { embedder, vectors });
  // The demo user's own full-text table, the one the service searches.
  const fts = lexicalTable(DEMO_USER_ID);
  const bareFts = store.sqlite.prepare(`SELECT rowid, bm25(${fts}, 2, 1) AS rank FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rank LIMIT ?`);

  let index = null;
  /**
   * Loads the service's index as the server does at start-up (read back from the index folder, else built) and
   * keeps a handle on it for the bare ANN; saves a freshly built one so the server's run can read it back.
   */
  async function warm() {
    const hadSavedIndex = savedIndexFor(dataDir, dimensions);
    const capture = captureHnswIndexes();
    const startedAt = performance.now();
    try {
      await vectors.warm(embedder.id, DEMO_USER_ID);
    } finally {
      capture.restore();
    }
    const ms = performance.now() - startedAt;
    index = capture.created.at(-1) ?? null;
    if (!index) throw new Error("the service made no HNSW index (is the store below the HNSW threshold?)");
    if (!hadSavedIndex) vectors.persist();
    return { ms, readBack: hadSavedIndex };
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
