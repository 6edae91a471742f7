// The retrieval service run in the bench's own process on a cached search store, and the "limit" beside it:
// the bare ANN query (usearch, on the very index file the service saved and reads back) plus the bare FTS5 query.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./server.mjs";
import { embedText } from "./corpus.mjs";
import { DEMO_USER_ID, EMBEDDERS } from "./search-store.mjs";

const serverSrc = path.join(ROOT, "apps/server/src");
const requireFromServer = createRequire(path.join(serverSrc, "modules/retrieval/index/vector-partition.ts"));

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
  const { createVectorStore, savedIndexBase } = await import(path.join(serverSrc, "modules/retrieval/index/vector-store.ts"));
  const { queryTerms, ftsOrQuery } = await import(path.join(serverSrc, "modules/retrieval/index/query-terms.ts"));
  const { lexicalTable } = await import(path.join(serverSrc, "modules/retrieval/index/lexical-index.ts"));
  const { candidatesFor } = await import(path.join(serverSrc, "modules/retrieval/index/vector-partition.ts"));
  const { ANN_CONFIG } = await import(path.join(serverSrc, "modules/retrieval/index/vector-graph-file.ts"));
  const { savedGraphFile } = await import(path.join(serverSrc, "modules/retrieval/index/vector-graphs.ts"));
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
   * Loads the service's index as the server does at start-up (read back from the index folder, else built), saves
   * it if it was built or changed, and reads that same file into a bare usearch index for the limit.
   */
  async function warm() {
    const hadSavedIndex = savedIndexFor(dataDir, dimensions);
    const startedAt = performance.now();
    await vectors.warm(embedder.id, DEMO_USER_ID);
    const ms = performance.now() - startedAt;
    vectors.persist();
    const file = savedGraphFile(savedIndexBase(indexDir, embedder.id, DEMO_USER_ID));
    if (!file || !existsSync(file)) throw new Error("the service saved no HNSW index (is the store below the HNSW threshold?)");
    const { Index } = requireFromServer("usearch");
    index = new Index({ ...ANN_CONFIG, dimensions });
    index.load(file);
    return { ms, readBack: hadSavedIndex };
  }

  /** Bare ANN + bare FTS5 for one query with `candidates` hits each, as the service asks its indexes for. */
  function bare(query, candidates) {
    const vector = embedText(query.trim(), dimensions);
    const match = ftsOrQuery(queryTerms(query));
    const annStart = performance.now();
    // As many candidates as the partition asks its ANN for; rescoring them is the service's own cost.
    index.search(vector, candidatesFor(candidates, index.size()), 1);
    const annMs = performance.now() - annStart;
    const ftsStart = performance.now();
    bareFts.all(match, candidates);
    const ftsMs = performance.now() - ftsStart;
    return { annMs, ftsMs, totalMs: annMs + ftsMs };
  }

  /**
   * Recall@k of the service's vector search (the ANN's candidates, rescored) against an exact scan of the same float
   * vectors: usearch's exactSearch over the table, 100,000 rows at a time.
   */
  function recall(queryTexts, k = 10) {
    const { exactSearch } = requireFromServer("usearch");
    const queries = queryTexts.map((text) => embedText(text.trim(), dimensions));
    const matrix = new Float32Array(queries.length * dimensions);
    queries.forEach((vector, index) => matrix.set(vector, index * dimensions));
    const exact = queries.map(() => []);
    const page = store.sqlite.prepare(
      "SELECT chunk_id AS chunkId, vector FROM chunk_vectors WHERE embedder_id = ? AND user_id = ? AND chunk_id > ? ORDER BY chunk_id LIMIT 100000",
    );
    for (let rows = page.all(embedder.id, DEMO_USER_ID, 0); rows.length > 0; rows = page.all(embedder.id, DEMO_USER_ID, rows.at(-1).chunkId)) {
      const data = new Float32Array(rows.length * dimensions);
      rows.forEach((row, index) => new Uint8Array(data.buffer, index * dimensions * 4, dimensions * 4).set(row.vector));
      const found = exactSearch(data, matrix, dimensions, k, "ip", 2);
      for (let query = 0; query < queries.length; query++) {
        for (let rank = 0; rank < Number(found.counts[query]); rank++) {
          const at = query * k + rank;
          exact[query].push([1 - found.distances[at], rows[Number(found.keys[at])].chunkId]);
        }
        exact[query] = exact[query].sort((a, b) => b[0] - a[0]).slice(0, k);
      }
    }
    let total = 0;
    queries.forEach((vector, index) => {
      const truth = new Set(exact[index].map(([, chunkId]) => chunkId));
      const hits = vectors.search(embedder.id, Array.from(vector), { userId: DEMO_USER_ID }, k);
      total += hits.filter((hit) => truth.has(hit.chunkId)).length / k;
    });
    return total / queries.length;
  }

  return {
    service,
    warm,
    bare,
    recall,
    search: (query) => service.search({ userId: DEMO_USER_ID, query, limit: 5 }),
    recommend: (queryText) => service.recommend({ userId: DEMO_USER_ID, queryText, limit: 5 }),
    close: () => store.close(),
  };
}
