import type { FastifyInstance } from "fastify";

/**
 * Starts `app.services.jobs` (recovering interrupted jobs) once every module has registered its handlers,
 * when the app is ready, and drains running jobs when the app closes.
 */
export function registerJobQueue(app: FastifyInstance) {
  const jobs = app.services.jobs;
  app.addHook("onReady", async () => {
    await jobs.start();
  });
  app.addHook("onClose", async () => {
    await jobs.stop();
  });
}
