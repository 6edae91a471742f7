import { createRequire } from "node:module";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Config } from "./config.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { registerOriginCheck } from "./http/origin-check.ts";
import { RequestLog } from "./http/request-log.ts";
import { registerSessionGuard } from "./http/session-guard.ts";
import { registerWebApp } from "./http/web-app.ts";
import { createAuthRepo } from "./modules/auth/auth.repo.ts";
import { registerAssistantRoutes } from "./modules/assistant/assistant.routes.ts";
import { registerAuthRoutes } from "./modules/auth/auth.routes.ts";
import { registerConversationRoutes } from "./modules/conversations/conversations.routes.ts";
import { createAuthService, type AuthService } from "./modules/auth/auth.service.ts";
import { registerHealthRoutes } from "./modules/health/health.routes.ts";
import { registerRetrievalModule } from "./modules/retrieval/register-retrieval-module.ts";
import { createJobQueue, type JobQueue } from "./jobs/job-queue.ts";
import { registerJobQueue } from "./jobs/register-job-queue.ts";
import { registerKnowledge } from "./modules/knowledge/register-knowledge.ts";
import { registerReminderRoutes } from "./modules/reminders/reminders.routes.ts";
import type { Providers } from "./providers/registry.ts";
import { createBlobStore, type BlobStore } from "./store/blob-store.ts";
import type { Store } from "./store/open-store.ts";
import { SAGE_VERSION } from "./version.ts";

export interface AppDeps {
  config: Config;
  store: Store;
  providers: Providers;
  /** false silences request logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean;
}

export interface AppServices {
  auth: AuthService;
  blobs: BlobStore;
  /** The persisted background queue; modules register their job kinds on it while the app is built. */
  jobs: JobQueue;
}

declare module "fastify" {
  interface FastifyInstance {
    services: AppServices;
    routeTable: { method: string; url: string }[];
    /** Settles once the demo account is in step with config; start-up fails if it rejects (main.ts). */
    accountsReady: Promise<void>;
  }
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;

/**
 * Fastify loads its schema compilers (ajv, fast-json-stringify) at start-up unless it is given its own. No route
 * declares a Fastify schema (input is parsed with zod), so these load them only if one ever does.
 */
function lazySchemaCompilers(): CompilersFactory {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
  const onFirstCall = <F>(load: () => F): F => {
    let loaded: F | undefined;
    return ((...args: unknown[]) => ((loaded ??= load()) as (...args: unknown[]) => unknown)(...args)) as F;
  };
  return {
    buildValidator: onFirstCall(() => fromFastify("@fastify/ajv-compiler")()),
    buildSerializer: onFirstCall(() => fromFastify("@fastify/fast-json-stringify-compiler")()),
  };
}

/** Builds the HTTP app over the given store and providers; tests pass a temporary store and fakes. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : { level: config.logLevel },
    logController: new RequestLog(["debug", "trace"].includes(config.logLevel)),
    bodyLimit: config.maxBodyBytes,
    trustProxy: false,
    // Shutdown must not wait for open event streams (chat) to end by themselves.
    forceCloseConnections: true,
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });

  const auth = createAuthService({ repo: createAuthRepo(store.db), sessionDays: config.sessionDays });
  // Keeping the demo account's password in step with config costs an argon2 verify (0.1-0.4 s), so it runs
  // beside the rest of start-up instead of before it; a login waits for it, and so does close.
  const accountsReady = auth.ensureDemoUser(config.demoUser.username, config.demoUser.password).then(async () => {
    await auth.pruneExpiredSessions();
  });
  accountsReady.catch(() => {}); // reported where it is awaited: main.ts and the login route's hook below
  const jobs = createJobQueue({ db: store.db, log: (message, error) => app.log.error({ err: error }, message) });
  const services: AppServices = { auth, blobs: createBlobStore(store.uploadsDir), jobs };
  app.decorate("services", services);
  app.decorate("accountsReady", accountsReady);
  app.addHook("onClose", () => accountsReady.catch(() => {}));
  const waitForAccounts = async () => accountsReady;
  // The route table, for tests that sweep every route (fuzzing, auth checks).
  const routeTable: { method: string; url: string }[] = [];
  app.decorate("routeTable", routeTable);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") routeTable.push({ method, url: route.url });
    if (route.url === "/api/auth/login") route.onRequest = [waitForAccounts, ...[route.onRequest ?? []].flat()];
  });

  await app.register(fastifyCookie);
  registerErrorHandler(app);
  registerOriginCheck(app);
  registerSessionGuard(app, auth);

  registerHealthRoutes(app, { version: SAGE_VERSION });
  registerAuthRoutes(app, { auth, loginRateLimit: config.loginRateLimit, secureCookies: config.secureCookies });

  // Feature modules: one register call each (keep this list in dependency order).
  await registerRetrievalModule(app, deps);
  registerJobQueue(app);
  await registerKnowledge(app, { config, store });
  registerConversationRoutes(app, { store, blobs: services.blobs });
  registerAssistantRoutes(app, { providers: deps.providers });
  registerReminderRoutes(app, { store });

  await registerWebApp(app, config.webDir);
  return app;
}
