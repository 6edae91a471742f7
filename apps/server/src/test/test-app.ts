import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { createApp, type AppDeps, type SageApp } from "../app.ts";
import { loadConfig, type Config } from "../config.ts";
import type { PasswordHasher } from "../modules/auth/password.ts";
import { createProviders, type Providers } from "../providers/registry.ts";
import { openAppStore, type AppStore, type PostgresStore } from "../store/open-app-store.ts";
import { openStore, type Store } from "../store/open-store.ts";
import { sharedDocumentReader } from "./shared-document-reader.ts";
import { testPasswordHasher } from "./test-password-hasher.ts";
import { testPostgres } from "./test-postgres.ts";

export const DEMO = { username: "demo", password: "sage-demo" };

export interface TestApp<S extends AppStore = Store> extends Omit<SageApp, "app" | "accountsReady" | "createUser" | "vectorSearch"> {
  app: FastifyInstance;
  store: S;
  config: Config;
  /** Logs in and returns the Cookie header value. */
  login(credentials?: { username: string; password: string }): Promise<string>;
  /** Another app over the same store (a restart with other providers or settings); the caller closes it. */
  reopen(options?: { config?: Config; providers?: Providers }): Promise<FastifyInstance>;
  /** As reopen, with the parts besides HTTP (the scheduler) and its own clock. */
  reopenApp(options?: { config?: Config; providers?: Providers; now?: () => Date }): Promise<SageApp>;
  /** Creates another user and returns its Cookie header value. */
  loginAsNewUser(username?: string): Promise<{ cookie: string; userId: number }>;
  close(): Promise<void>;
}

type TestAppOptions = {
  env?: Record<string, string>;
  providers?: (config: Config) => Providers;
  /** Runs on the empty data dir before the store opens (a store left by an older version, say). */
  beforeOpen?: (dataDir: string) => Promise<void> | void;
  /** Argon2id at a test's cost unless given (production's cost is tested once, in auth.routes.test.ts). */
  passwordHasher?: PasswordHasher;
  /** The scheduler's clock (and the one sign-in tokens expire by). */
  now?: () => Date;
  /** The IMAP client, wrapped (to act in the middle of a sync). */
  connectImap?: AppDeps["connectImap"];
};

/** The real app over a temporary data dir; env overrides and provider overrides as the test needs. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // The routes-postgres project: the same test on PostgreSQL (its files never reach for SQLite's own connection).
  if (testPostgres.server) return (await createPostgresTestApp(await testPostgres.server.createDatabase(), options)) as unknown as TestApp;
  return testAppOn(options, async (config) => {
    // A store an older version left (beforeOpen) is migrated from where it stands; any other starts fully migrated.
    const file = path.join(config.dataDir, "sage.db");
    if (!options.beforeOpen && !existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      copyFileSync(await migratedStore(), file);
    }
    return openStore({ dataDir: config.dataDir, uploadsDir: config.files.dir });
  });
}

let migrated: Promise<string> | undefined;
/**
 * A SQLite store with every migration applied, made once per machine and schema (its name carries a hash of the
 * migrations) and copied for each test app: running the migrations was a fifth of a route test's CPU (decision 110).
 * openStore still checks the copy's migrations.
 */
function migratedStore(): Promise<string> {
  migrated ??= (async () => {
    const migrations = fileURLToPath(new URL("../store/migrations/", import.meta.url));
    const hash = createHash("sha256");
    for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(path.join(migrations, name)));
    const file = path.join(tmpdir(), `sage-migrated-${hash.digest("hex").slice(0, 16)}.db`);
    if (existsSync(file)) return file;
    const temp = makeTempDir("sage-migrating-");
    try {
      const store = openStore({ dataDir: temp.dir, migrationsDir: migrations });
      await store.close(); // the last connection's close folds the WAL into sage.db
      renameSync(path.join(temp.dir, "sage.db"), file); // whole or not at all, whichever worker gets there first
    } finally {
      temp.remove();
    }
    return file;
  })();
  return migrated;
}

/**
 * The same app on a PostgreSQL database (a fresh one per app: `createDatabase` of a test server), with the settings
 * several processes on one database need.
 */
export function createPostgresTestApp(databaseUrl: string, options: TestAppOptions = {}): Promise<TestApp<PostgresStore>> {
  return testAppOn(
    {
      ...options,
      env: {
        SAGE_DATABASE_URL: databaseUrl,
        SAGE_SECRET_KEY: "c2FnZS10ZXN0LXNlY3JldC1rZXktMzItYnl0ZXMhISE=",
        ...options.env,
      },
    },
    async (config) => (await openAppStore({ dataDir: config.dataDir, uploadsDir: config.files.dir, databaseUrl: config.databaseUrl })) as PostgresStore,
  );
}

async function testAppOn<S extends AppStore>(options: TestAppOptions, open: (config: Config) => Promise<S>): Promise<TestApp<S>> {
  const temp = makeTempDir();
  const config = loadConfig({
    SAGE_DATA_DIR: temp.dir,
    SAGE_WEB_DIR: `${temp.dir}/no-web`,
    SAGE_LOG_LEVEL: "silent",
    SAGE_DOCUMENT_WARM: "false",
    ...(options.env?.SAGE_DATABASE_URL ? { SAGE_FILES_DIR: `${temp.dir}/files` } : {}),
    ...options.env,
  });
  await options.beforeOpen?.(config.dataDir);
  const store = await open(config);
  const providers = options.providers?.(config) ?? createProviders(config);
  const passwordHasher = options.passwordHasher ?? testPasswordHasher;
  const built = await createApp({
    config,
    store,
    providers,
    logger: false,
    passwordHasher,
    now: options.now,
    checkResponses: true,
    connectImap: options.connectImap,
    openDocuments: sharedDocumentReader,
  });
  const { app } = built;
  await built.accountsReady; // the demo account exists before a test looks at the store

  async function login(credentials = DEMO) {
    const response = await app.inject({ method: "POST", url: "/api/auth/login", payload: credentials });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    const cookie = response.cookies.find((item) => item.name === "sage_session");
    return `sage_session=${cookie!.value}`;
  }

  async function reopenApp(reopened: { config?: Config; providers?: Providers; now?: () => Date } = {}) {
    const other = await createApp({
      config: reopened.config ?? config,
      store,
      providers: reopened.providers ?? providers,
      logger: false,
      passwordHasher,
      now: reopened.now ?? options.now,
      checkResponses: true,
      openDocuments: sharedDocumentReader,
    });
    await other.app.ready();
    return other;
  }

  let userCounter = 0;
  return {
    app,
    routes: built.routes,
    jobs: built.jobs,
    blobs: built.blobs,
    knowledgeIndex: built.knowledgeIndex,
    schedules: built.schedules,
    commitments: built.commitments,
    people: built.people,
    triage: built.triage,
    dossiers: built.dossiers,
    push: built.push,
    channels: built.channels,
    syncDueCalendars: built.syncDueCalendars,
    syncDueMail: built.syncDueMail,
    store,
    config,
    login,
    reopen: async (reopened = {}) => (await reopenApp(reopened)).app,
    reopenApp,
    async loginAsNewUser(username = `other-${++userCounter}`) {
      const user = await built.createUser(username, "other-password");
      return { cookie: await login({ username, password: "other-password" }), userId: user.id };
    },
    async close() {
      await app.close();
      await store.close();
      temp.remove();
    },
  };
}
