import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../app.ts";
import { registerRetrievalRoutes } from "./retrieval.routes.ts";
import { createRetrievalService } from "./retrieval.service.ts";

/** Wires search, recommendations and the vector lifecycle into the app. */
export async function registerRetrievalModule(app: FastifyInstance, deps: AppDeps) {
  const retrieval = createRetrievalService({ sqlite: deps.store.sqlite });
  registerRetrievalRoutes(app, { retrieval });
}
