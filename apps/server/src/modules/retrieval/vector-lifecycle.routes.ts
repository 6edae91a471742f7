import type { FastifyInstance } from "fastify";
import { resetResponseSchema, revectorizeResponseSchema, vectorStatusSchema } from "@sage/contracts/retrieval";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { VectorLifecycleService } from "./vector-lifecycle.service.ts";

export function registerVectorLifecycleRoutes(app: FastifyInstance, deps: { lifecycle: VectorLifecycleService }) {
  const { lifecycle } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    "/api/reset_vector_db",
    { schema: { summary: "Empty the knowledge base (a snapshot is kept)", response: { 200: resetResponseSchema } } },
    async (request) => lifecycle.reset(requireUser(request).id),
  );
  api.post(
    "/api/vectors/revectorize",
    { schema: { summary: "Embed every passage again with the current embedder", response: { 200: revectorizeResponseSchema } } },
    async (request) => lifecycle.revectorize(requireUser(request).id),
  );
  api.get(
    "/api/vectors/status",
    { schema: { summary: "Which embedder is in use and how much is embedded", response: { 200: vectorStatusSchema } } },
    async (request) => lifecycle.status(requireUser(request).id),
  );
}
