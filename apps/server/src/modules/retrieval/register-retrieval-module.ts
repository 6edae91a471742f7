import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../app.ts";
import { readdir, rm } from "node:fs/promises";
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
  const vectors = createVectorStore(sqlite, { indexDir: path.join(deps.store.dataDir, "vector-index") });
  // Load (or start building) every user's index at start-up, so the first searches need not wait for it.
  app.addHook("onReady", async () => {
    if (!embedder) return;
    const users = sqlite.prepare("SELECT DISTINCT user_id AS userId FROM chunk_vectors WHERE embedder_id = ?").all(embedder.id) as { userId: number }[];
    for (const { userId } of users) {
      vectors.warm(embedder.id, userId).catch((error: unknown) => app.log.warn({ err: error }, "could not load the vector index"));
    }
  });
  app.addHook("onClose", async () => {
    try {
      vectors.persist();
    } catch (error) {
      app.log.warn({ err: error }, "could not save the vector index; it will be rebuilt from the store");
    }
  });
  const vectorizer = createVectorizer({ sqlite, embedder, vectors });
  const retrieval = createRetrievalService({
    sqlite,
    embedder,
    vectors,
    onEmbedError: (error) => app.log.warn({ err: error }, "query embedding failed; answering from BM25 alone"),
  });
  app.services.vectorizer = vectorizer;
  // An import killed mid-way leaves its uploaded zip behind; nothing resumes imports, so clear them at start-up.
  const tempDir = path.join(deps.store.dataDir, "tmp");
  const stale = await readdir(tempDir).catch(() => [] as string[]);
  await Promise.all(stale.filter((name) => /^import-.*\.zip$/.test(name)).map((name) => rm(path.join(tempDir, name), { force: true })));
  registerRetrievalRoutes(app, { retrieval });
  registerTestQueryRoutes(app, { retrieval, llm: deps.providers.llm ?? null });
  registerVectorLifecycleRoutes(app, {
    sqlite,
    embedder,
    vectors,
    vectorizer,
    jobs: app.services.jobs,
    tempDir,
  });
}
