import type { AppModule } from "../../http/app-module.ts";

/** GET /api/health: answered without a session, for monitors and the load tests. */
export function createHealthModule(deps: { version: string }): AppModule {
  return {
    register(app) {
      app.get("/api/health", async () => ({ status: "ok" as const, version: deps.version }));
    },
  };
}
