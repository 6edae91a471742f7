/**
 * `npm run eval:retrieval`: BEIR SciFact (train queries) through SAGE's ingestion (chunks in the store,
 * FTS kept by the schema's triggers) and the retrieval service, printing nDCG@10 and recall@100 as JSON.
 * SAGE_SCIFACT_DIR overrides the data folder (default ../shared/eval/scifact beside the repo).
 * `-- --limit=N` keeps the first N queries and a corpus of their relevant documents plus 10 x N others: a quick
 * check that a configuration runs end to end (e.g. SAGE_EMBEDDER=local with a model folder), not a figure to quote.
 * Each run also reports nDCG@10 on five fixed folds of the queries (by a hash of the query id), so a method tuned on
 * some folds can be checked on the others; `-- --per-query=FILE` writes every query's nDCG@10 as JSON for paired
 * comparisons between two runs. `-- --postgres` also copies the store into a PostgreSQL 15 started for the run (as
 * `sage-admin migrate` does) and reports lexical search there ("lexical:postgres", pg-lexical-index.ts) beside SQLite's.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "../packages/testkit/src/temp-dir.ts";
import { openStore } from "../apps/server/src/store/open-store.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { benchRetrieval } from "./lib/retrieval-service.ts";
import { createVectorStore } from "../apps/server/src/modules/retrieval/index/vector-store.ts";
import { createVectorizer } from "../apps/server/src/modules/retrieval/index/vectorizer.ts";
import { createEmbedder } from "../apps/server/src/providers/embedder/create-embedder.ts";
import { resolveLocalModel } from "../apps/server/src/providers/embedder/local.ts";
import { ingestPlainDocument } from "./ingest-plain-document.ts";
import { postgresLexicalRun } from "./lib/postgres-lexical-run.ts";
import { loadSciFact, ndcgAt, recallAt, type SciFact } from "./scifact-data.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// The shared folder sits beside the main checkout (../shared) or two levels up from a worktree (/work/wt/NAME).
const dataDir =
  process.env.SAGE_SCIFACT_DIR ??
  [path.resolve(repoRoot, "../shared/eval/scifact"), path.resolve(repoRoot, "../../shared/eval/scifact")].find((dir) => existsSync(dir)) ??
  path.resolve(repoRoot, "../shared/eval/scifact");

const limitArg = process.argv.find((arg) => arg.startsWith("--limit="));
const limit = limitArg ? Number(limitArg.slice("--limit=".length)) : null;
const perQueryFile = process.argv.find((arg) => arg.startsWith("--per-query="))?.slice("--per-query=".length);
const withPostgres = process.argv.includes("--postgres");
const FOLDS = 5;

async function main() {
  if (limit !== null && !(Number.isInteger(limit) && limit > 0)) throw new Error(`--limit needs a positive whole number, not ${limitArg}`);
  const data = limit ? subset(loadSciFact(dataDir), limit) : loadSciFact(dataDir);
  const temp = makeTempDir();
  let store = openStore({ dataDir: temp.dir });
  let postgres: Awaited<ReturnType<typeof postgresLexicalRun>> | null = null;
  try {
    const started = performance.now();
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'eval', 'x', ?)").run(new Date().toISOString());
    const itemToDoc = new Map<number, string>();
    store.sqlite.transaction(() => {
      for (const doc of data.corpus) itemToDoc.set(ingestPlainDocument(store.sqlite, { userId: 1, name: doc.title, text: doc.text }), doc.id);
    })();
    const indexMs = performance.now() - started;

    // Lexical alone, then hybrid with the embedder the environment configures (SAGE_EMBEDDER etc.), if any.
    if (withPostgres) {
      // The copy reads the installation as `sage-admin migrate` does: from its folder, with SAGE's own store closed.
      await store.close();
      postgres = await postgresLexicalRun(temp.dir);
      store = openStore({ dataDir: temp.dir });
    }
    const configs: { name: string; service: ReturnType<typeof benchRetrieval> }[] = [{ name: "lexical", service: benchRetrieval(store.sqlite) }];
    if (postgres) configs.push({ name: "lexical:postgres", service: benchRetrieval(store.sqlite, { lexicalSearch: postgres.index.search }) });
    const appConfig = loadConfig(process.env);
    const local = appConfig.embedder.kind === "local" ? resolveLocalModel(appConfig.embedder.localModel, appConfig.dataDir) : null;
    // The eval never downloads a model: a local one must already be in its folder (or the data dir's cache).
    const setup =
      local && !local.cached ? { embedder: null, description: `none (local model skipped: no ONNX model in ${local.folder})` } : createEmbedder(appConfig);
    if (!setup.embedder && appConfig.embedder.kind !== "none") console.error(`eval:retrieval: lexical only, ${setup.description}`);
    const embedderNote = setup.description;
    if (setup.embedder) {
      const vectors = createVectorStore(store.sqlite);
      const vectorizer = createVectorizer({ sqlite: store.sqlite, embedder: setup.embedder, vectors });
      await vectorizer.vectorizeUser(1);
      configs.push({ name: `hybrid:${setup.embedder.id}`, service: benchRetrieval(store.sqlite, { embedder: setup.embedder, vectors }) });
    }
    const runs: Record<string, unknown> = {};
    const perQuery: Record<string, Record<string, number>> = {};
    for (const config of configs) {
      const service = config.service;
      let ndcg = 0;
      let recall = 0;
      const latencies: number[] = [];
      const scores: Record<string, number> = {};
      perQuery[config.name] = scores;
      for (const query of data.queries) {
        const t0 = performance.now();
        const chunks = await service.searchChunks(query.text, { userId: 1 }, 300);
        latencies.push(performance.now() - t0);
        const ranked: string[] = [];
        const seen = new Set<number>();
        for (const chunk of chunks) {
          if (seen.has(chunk.itemId)) continue;
          seen.add(chunk.itemId);
          ranked.push(itemToDoc.get(chunk.itemId)!);
        }
        const relevant = data.qrels.get(query.id)!;
        scores[query.id] = ndcgAt(ranked, relevant, 10);
        ndcg += scores[query.id]!;
        recall += recallAt(ranked, relevant, 100);
      }
      latencies.sort((a, b) => a - b);
      runs[config.name] = {
        "nDCG@10": round(ndcg / data.queries.length),
        "recall@100": round(recall / data.queries.length),
        p50_ms: round(latencies[Math.floor(latencies.length * 0.5)]),
        p95_ms: round(latencies[Math.floor(latencies.length * 0.95)]),
        "nDCG@10_by_fold": foldMeans(scores),
      };
    }
    const chunkCount = (store.sqlite.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
    console.log(
      JSON.stringify(
        {
          dataset: limit ? `scifact-train (first ${data.queries.length} queries, subset)` : "scifact-train",
          embedder: embedderNote,
          documents: data.corpus.length,
          chunks: chunkCount,
          queries: data.queries.length,
          index_ms: round(indexMs),
          ...(postgres ? { postgres_index_ms: round(postgres.indexMs) } : {}),
          runs,
        },
        null,
        2,
      ),
    );
    if (perQueryFile) writeFileSync(perQueryFile, JSON.stringify(perQuery));
  } finally {
    await store.close();
    await postgres?.stop();
    temp.remove();
  }
}

/** The first `count` queries over their relevant documents plus 10 x count others. */
function subset(data: SciFact, count: number): SciFact {
  const queries = data.queries.slice(0, count);
  const wanted = new Set(queries.flatMap((query) => [...data.qrels.get(query.id)!]));
  const others = data.corpus.filter((doc) => !wanted.has(doc.id)).slice(0, 10 * count);
  return { ...data, queries, corpus: [...data.corpus.filter((doc) => wanted.has(doc.id)), ...others] };
}

/** A query's fold: FNV-1a of its id, so the split never depends on what the query says or how it scores. */
function foldOf(queryId: string): number {
  let hash = 2166136261;
  for (const char of queryId) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % FOLDS;
}

function foldMeans(scores: Record<string, number>): number[] {
  const sums = new Array<number>(FOLDS).fill(0);
  const counts = new Array<number>(FOLDS).fill(0);
  for (const [id, value] of Object.entries(scores)) {
    sums[foldOf(id)]! += value;
    counts[foldOf(id)]! += 1;
  }
  return sums.map((sum, fold) => round(sum / Math.max(1, counts[fold]!)));
}

const round = (value: number) => Math.round(value * 10000) / 10000;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
