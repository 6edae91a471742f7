import type { FastifyInstance } from "fastify";
import { requireUser } from "../../http/session-guard.ts";
import type { VectorLifecycleService } from "./vector-lifecycle.service.ts";

export function registerVectorLifecycleRoutes(app: FastifyInstance, deps: { lifecycle: VectorLifecycleService }) {
  const { lifecycle } = deps;
  app.post("/api/reset_vector_db", async (request) => lifecycle.reset(requireUser(request).id));
  app.post("/api/vectors/revectorize", async (request) => lifecycle.revectorize(requireUser(request).id));
  app.get("/api/vectors/status", async (request) => lifecycle.status(requireUser(request).id));
}
