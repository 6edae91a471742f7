import { healthResponseSchema } from "@sage/contracts/health";
import type { AppModule } from "../../http/app-module.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";

/** GET /api/health: answered without a session, for monitors and the load tests. */
export function createHealthModule(deps: { version: string }): AppModule {
  return {
    register(app) {
      app
        .withTypeProvider<ZodTypeProvider>()
        .get(
          "/api/health",
          { schema: { summary: "Whether the server is up, and its version", security: [], response: { 200: healthResponseSchema } } },
          async () => ({ status: "ok" as const, version: deps.version }),
        );
    },
  };
}
