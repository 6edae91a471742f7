/**
 * `npm run eval:retrieval`: BEIR SciFact (train queries) through SAGE's ingestion (chunks in the store,
 * FTS kept by the schema's triggers) and the retrieval service, printing nDCG@10 and recall@100 as JSON.
 * SAGE_SCIFACT_DIR overrides the data folder (default ../shared/eval/scifact beside the repo).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "../packages/testkit/src/temp-dir.ts";
import { openStore } from "../apps/server/src/store/open-store.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { createRetrievalService } from "../apps/server/src/modules/retrieval/retrieval.service.ts";
import { createVectorStore } from "../apps/server/src/modules/retrieval/vector-store.ts";
import { createVectorizer } from "../apps/server/src/modules/retrieval/vectorizer.ts";
import { createEmbedder } from "../apps/server/src/providers/embedder/create-embedder.ts";
import { ingestPlainDocument } from "./ingest-plain-document.ts";
import { loadSciFact, ndcgAt, recallAt } from "./scifact-data.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const dataDir = process.env.SAGE_SCIFACT_DIR ?? path.resolve(repoRoot, "../shared/eval/scifact");

async function main() {
  const data = loadSciFact(dataDir);
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  try {
    const started = performance.now();
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'eval', 'x', ?)").run(new Date().toISOString());
    const itemToDoc = new Map<number, string>();
    store.sqlite.transaction(() => {
      for (const doc of data.corpus) itemToDoc.set(ingestPlainDocument(store.sqlite, { userId: 1, name: doc.title, text: doc.text }), doc.id);
    })();
    const indexMs = performance.now() - started;

    // Lexical alone, then hybrid with the embedder the environment configures (SAGE_EMBEDDER etc.), if any.
    const configs: { name: string; service: ReturnType<typeof createRetrievalService> }[] = [
      { name: "lexical", service: createRetrievalService({ sqlite: store.sqlite }) },
    ];
    const setup = createEmbedder(loadConfig(process.env));
    const embedderNote = setup.description;
    if (setup.embedder) {
      const vectors = createVectorStore(store.sqlite);
      const vectorizer = createVectorizer({ sqlite: store.sqlite, embedder: setup.embedder, vectors });
      await vectorizer.vectorizeUser(1);
      configs.push({ name: `hybrid:${setup.embedder.id}`, service: createRetrievalService({ sqlite: store.sqlite, embedder: setup.embedder, vectors }) });
    }
    const runs: Record<string, unknown> = {};
    for (const config of configs) {
      const service = config.service;
      let ndcg = 0;
      let recall = 0;
      const latencies: number[] = [];
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
        ndcg += ndcgAt(ranked, relevant, 10);
        recall += recallAt(ranked, relevant, 100);
      }
      latencies.sort((a, b) => a - b);
      runs[config.name] = {
        "nDCG@10": round(ndcg / data.queries.length),
        "recall@100": round(recall / data.queries.length),
        p50_ms: round(latencies[Math.floor(latencies.length * 0.5)]),
        p95_ms: round(latencies[Math.floor(latencies.length * 0.95)]),
      };
    }
    const chunkCount = (store.sqlite.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
    console.log(
      JSON.stringify(
        { dataset: "scifact-train", embedder: embedderNote, documents: data.corpus.length, chunks: chunkCount, queries: data.queries.length, index_ms: round(indexMs), runs },
        null,
        2,
      ),
    );
  } finally {
    await store.close();
    temp.remove();
  }
}

const round = (value: number) => Math.round(value * 10000) / 10000;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
