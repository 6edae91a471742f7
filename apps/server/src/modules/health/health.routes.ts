import type { FastifyInstance } from "fastify";

export function registerHealthRoutes(app: FastifyInstance, deps: { version: string }) {
  app.get("/api/health", async () => ({ status: "ok" as const, version: deps.version }));
}
