import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import { safeFetch } from "../../http/safe-fetch.ts";
import type { Store } from "../../store/open-store.ts";
import { registerKnowledgeRoutes } from "./knowledge.routes.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { createKnowledgeService, type KnowledgeService, type KnowledgeVectorizer } from "./knowledge.service.ts";

export const INLINE_INGEST_MAX_BYTES = 1_048_576;
export const INLINE_INGEST_WAIT_MS = 8_000;

declare module "fastify" {
  interface FastifyInstance {
    knowledge: KnowledgeService;
  }
}

declare module "../../app.ts" {
  interface AppServices {
    /** Set by the retrieval module (before or after this one): embeds an item's chunks after ingestion. */
    vectorizer?: KnowledgeVectorizer;
  }
}

/**
 * The knowledge base: folders, files, links and notes, their ingestion jobs and routes. Chunks are embedded by
 * `app.services.vectorizer` when the retrieval module has set it (read at ingestion time, so order does not matter).
 */
export async function registerKnowledge(
  app: FastifyInstance,
  deps: { config: Config; store: Store; vectorizer?: () => KnowledgeVectorizer | undefined },
): Promise<KnowledgeService> {
  const { config } = deps;
  if (!app.hasContentTypeParser("multipart/form-data")) {
    await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes + 1, files: 1, fields: 20, fieldSize: 1_000_000 } });
  }
  const knowledge = createKnowledgeService({
    repo: createKnowledgeRepo(deps.store.db),
    blobs: app.services.blobs,
    jobs: app.services.jobs,
    fetchUrl: (url) => safeFetch(url, { allowPrivate: config.fetchAllowPrivate }),
    vectorizer: deps.vectorizer ?? (() => app.services.vectorizer),
    warn: (message, error) => app.log.warn({ err: error }, message),
    limits: { maxUploadBytes: config.maxUploadBytes, inlineMaxBytes: INLINE_INGEST_MAX_BYTES, inlineWaitMs: INLINE_INGEST_WAIT_MS },
  });
  app.decorate("knowledge", knowledge);
  registerKnowledgeRoutes(app, { knowledge });
  return knowledge;
}
