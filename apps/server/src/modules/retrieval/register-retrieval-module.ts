import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../app.ts";
import path from "node:path";
import { registerRetrievalRoutes } from "./retrieval.routes.ts";
import { registerTestQueryRoutes } from "./test-query.routes.ts";
import { registerVectorLifecycleRoutes } from "./vector-lifecycle.routes.ts";
import { createRetrievalService } from "./retrieval.service.ts";
import { createVectorStore } from "./vector-store.ts";
import { createVectorizer } from "./vectorizer.ts";

/** Wires search, recommendations and the vector lifecycle into the app; ingestion reaches the vectorizer. */
export async function registerRetrievalModule(app: FastifyInstance, deps: AppDeps) {
  const sqlite = deps.store.sqlite;
  const embedder = deps.providers.embedder ?? null;
  const vectors = createVectorStore(sqlite);
  const vectorizer = createVectorizer({ sqlite, embedder, vectors });
  const retrieval = createRetrievalService({
    sqlite,
    embedder,
    vectors,
    onEmbedError: (error) => app.log.warn({ err: error }, "query embedding failed; answering from BM25 alone"),
  });
  app.services.vectorizer = vectorizer;
  registerRetrievalRoutes(app, { retrieval });
  registerTestQueryRoutes(app, { retrieval, llm: deps.providers.llm ?? null });
  registerVectorLifecycleRoutes(app, {
    sqlite,
    embedder,
    vectors,
    vectorizer,
    jobs: app.services.jobs,
    tempDir: path.join(deps.store.dataDir, "tmp"),
  });
}
