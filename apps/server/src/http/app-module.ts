import type { FastifyInstance } from "fastify";

/**
 * What every `modules/<name>/<name>.module.ts` returns besides the ports it offers other modules: its routes
 * (and lifecycle hooks) to mount. The composition root (app.ts) builds the modules, passes ports between them,
 * and registers each.
 */
export interface AppModule {
  register(app: FastifyInstance): void | Promise<void>;
}
