import path from "node:path";
import { createRequire } from "node:module";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { User } from "@sage/contracts/auth";
import type { Config } from "./config.ts";
import type { AppModule } from "./http/app-module.ts";
import { badRequest } from "./http/app-error.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { createHostAllowList, registerHostCheck } from "./http/host-check.ts";
import { notJson, registerJsonBodyParser } from "./http/json-body.ts";
import { registerMultipart } from "./http/multipart-form.ts";
import { registerOriginCheck } from "./http/origin-check.ts";
import { registerOpenApiRoute, registerRouteContracts, type RegisteredRoute } from "./http/route-contracts.ts";
import { RequestLog, serializeRequest } from "./http/request-log.ts";
import { safeFetch } from "./http/safe-fetch.ts";
import { registerSessionGuard } from "./http/session-guard.ts";
import { registerSlowClientLimits } from "./http/slow-clients.ts";
import { registerWebApp } from "./http/web-app.ts";
import { createJobQueue, type JobQueue } from "./jobs/job-queue.ts";
import { createAccountsModule, type ConnectImap } from "./modules/accounts/accounts.module.ts";
import { createAssistantModule } from "./modules/assistant/assistant.module.ts";
import { createPushModule, reminderDueAt, reminderDueNow, type PushModule } from "./modules/push/push.module.ts";
import { createChannelsModule, watchApprovals, type ChannelsModule } from "./modules/channels/channels.module.ts";
import { createCommitmentsModule, type CommitmentsModule } from "./modules/commitments/commitments.module.ts";
import { createCalendarFeedModule } from "./modules/calendar-feed/calendar-feed.module.ts";
import { createAuthModule } from "./modules/auth/auth.module.ts";
import { hasherFor, type PasswordHasher } from "./modules/auth/password.ts";
import { createBackupModule } from "./modules/backup/backup.module.ts";
import { createConversationsModule } from "./modules/conversations/conversations.module.ts";
import { createHealthModule } from "./modules/health/health.module.ts";
import type { DocumentReader, DocumentReaderOptions } from "./documents/documents.ts";
import { createDocumentsOutModule } from "./modules/documents-out/documents-out.module.ts";
import { createExternalToolsModule } from "./modules/external-tools/external-tools.module.ts";
import { createSharedApprovals } from "./modules/external-tools/shared-approvals.ts";
import { createKnowledgeModule } from "./modules/knowledge/knowledge.module.ts";
import { createMemoryModule } from "./modules/memory/memory.module.ts";
import { createPeopleModule, type PeopleModule } from "./modules/people/people.module.ts";
import { createRemindersModule } from "./modules/reminders/reminders.module.ts";
import { createTriageModule, type TriageModule } from "./modules/triage/triage.module.ts";
import { createDossiersModule, type DossiersModule } from "./modules/dossiers/dossiers.module.ts";
import {
  createRetrievalModule,
  openPgSearchIndex,
  openSqliteSearchIndex,
  germanSpelling,
  searchText,
  type KnowledgeIndexPort,
} from "./modules/retrieval/retrieval.module.ts";
import { createSchedulesModule, type SchedulesModule } from "./modules/schedules/schedules.module.ts";
import { createSignInModule } from "./modules/sign-in/sign-in.module.ts";
import { createMcpHub } from "./providers/mcp/mcp-hub.ts";
import type { Providers } from "./providers/registry.ts";
import { createBlobStore, type BlobStore } from "./store/blob-store.ts";
import { createSecretBox, loadSecretKey } from "./store/secret-box.ts";
import type { AppStore } from "./store/open-app-store.ts";
import { SAGE_VERSION } from "./version.ts";

export interface AppDeps {
  config: Config;
  store: AppStore;
  providers: Providers;
  /** false silences request logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean;
  /** How passwords are hashed: production's argon2id cost unless a test passes a cheaper one. */
  passwordHasher?: PasswordHasher;
  /** The scheduler's clock (tests move it; decision 036), which sign-in tokens also expire by. */
  now?: () => Date;
  /**
   * When queued and interrupted jobs start: once the app is ready (tests, which inject without a socket), or once
   * the server listens (main.ts), so a resumed job never keeps a restarted server from answering (issue 52).
   */
  startJobsOn?: "ready" | "listen";
  /** Every response is checked against its route's schema, a mismatch failing the request (tests; decision 085). */
  checkResponses?: boolean;
  /** The IMAP client (tests wrap it, to act in the middle of a sync). */
  connectImap?: ConnectImap;
  /**
   * Opens the processes that read documents. Tests pass one reader shared by all their apps, which the apps do not
   * close: forking a reader per test app was a quarter of the route tests' time (decision 111).
   */
  openDocuments?: (options: DocumentReaderOptions) => DocumentReader;
}

/** The built app, and the parts of it that start-up and tests reach for besides HTTP. */
export interface SageApp {
  app: FastifyInstance;
  /** Settles once the demo account is in step with config; start-up fails if it rejects (main.ts). */
  accountsReady: Promise<void>;
  /** Every route with its schema, for tests that sweep them all (fuzzing, auth checks, contracts). */
  routes: RegisteredRoute[];
  jobs: JobQueue;
  blobs: BlobStore;
  knowledgeIndex: KnowledgeIndexPort;
  /** Which vector search the store's engine gives, in plain words (said at start-up). */
  vectorSearch: string;
  /** The scheduler: run what is due now, and wait for started runs (tests, the bench). */
  schedules: SchedulesModule["control"];
  /** Web push: the reminders round, run now (tests). */
  push: PushModule["control"];
  /** Channels: a round (listeners, retries, reminders) now, and waiting until nothing is being sent (tests, bench). */
  channels: ChannelsModule["control"];
  /** The commitments ledger: read the user's new items now (tests). */
  commitments: CommitmentsModule["control"];
  /** The people pages: bring a user's people up to date now (tests). */
  people: PeopleModule["control"];
  /** The triaged inbox: sort a user's new mail now (tests). */
  triage: TriageModule["control"];
  /** Meeting dossiers: the round before meetings, now (tests). */
  dossiers: DossiersModule["control"];
  createUser(username: string, password: string): Promise<User>;
  /** The 15-minute calendar round, run now (the app runs it on a timer): answers how many syncs it started. */
  syncDueCalendars(now?: Date): Promise<number>;
  /** The mail poll round, run now (the app runs it every 20 seconds): answers how many syncs it started. */
  syncDueMail(now?: Date): Promise<number>;
}

/** Wherever a password or token could sit in a logged object, pino writes "[secret]" instead (decision 030). */
const SECRET_LOG_PATHS = [
  "password",
  "accessToken",
  "refreshToken",
  "tokens",
  "secrets",
  "icsUrl",
  "*.password",
  "*.accessToken",
  "*.refreshToken",
  "*.tokens",
  "*.secrets",
  "*.icsUrl",
  "*.*.password",
  "*.*.accessToken",
  "*.*.refreshToken",
  // Channels' credentials (issue 49): a bot's token, Slack's app token and signing secret.
  "token",
  "botToken",
  "appToken",
  "signingSecret",
  "clientSecret",
  "*.token",
  "*.botToken",
  "*.appToken",
  "*.signingSecret",
  "*.clientSecret",
];

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;

/**
 * Fastify loads its schema compilers (ajv, fast-json-stringify: 106 modules) at start-up unless it is given its own.
 * Routes declare zod schemas, compiled by route-contracts.ts, so these are never called: they load nothing.
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

/**
 * The composition root: builds each module over the store and providers, passes ports between them, and mounts
 * their routes. Tests pass a temporary store and fakes.
 */
export async function createApp(deps: AppDeps): Promise<SageApp> {
  const { config, store, providers } = deps;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : { level: config.logLevel, redact: { paths: SECRET_LOG_PATHS, censor: "[secret]" }, serializers: { req: serializeRequest as never } },
    logController: new RequestLog(["debug", "trace"].includes(config.logLevel)),
    bodyLimit: config.maxBodyBytes,
    trustProxy: false,
    // Node's own limit on receiving a whole request, which Fastify turns off: the last stop for an upload that
    // trickles; a body that stops arriving is cut much sooner by the slow-client limits (registerSlowClientLimits).
    requestTimeout: 3_600_000,
    // Shutdown must not wait for open event streams (chat) to end by themselves.
    forceCloseConnections: true,
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  const warn = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
  // On PostgreSQL several processes may share the database: jobs, scheduled runs and approvals are shared with them.
  const shared = store.engine === "postgres";
  const jobs = createJobQueue({ db: store.db, shared, log: (message, error) => app.log.error({ err: error }, message) });
  const blobs = createBlobStore(store.uploadsDir, { shared: config.files.shared });

  const auth = createAuthModule({
    db: store.db,
    hasher: deps.passwordHasher ?? hasherFor(config.passwordCost),
    sessionDays: config.sessionDays,
    demoUser: config.demoUser,
    loginRateLimit: config.loginRateLimit,
    secureCookies: config.secureCookies,
    shared,
  });
  const conversations = createConversationsModule({
    store,
    shared,
    log: (error) => warn("a conversation's deletion left work undone", error),
    fold: (text) => searchText(text).toLowerCase(),
    germanSpelling,
    checkModel: (model) => {
      const allowed = providers.llm?.allowedModels ?? [];
      if (!allowed.includes(model)) throw badRequest(`Model "${model}" is not allowed. Allowed models: ${allowed.join(", ")}`, "model_not_allowed");
    },
  });
  const searchIndex = store.engine === "postgres" ? await openPgSearchIndex(store) : openSqliteSearchIndex(store, warn);
  const retrieval = createRetrievalModule({
    searchIndex,
    embedder: providers.embedder ?? null,
    llm: providers.llm,
    jobs,
    conversations: conversations.port,
    log: { warn },
  });
  const knowledge = createKnowledgeModule({
    store,
    blobs,
    jobs,
    index: retrieval.index,
    conversations: conversations.port,
    fetchUrl: (url) => safeFetch(url, { allowPrivate: config.fetchAllowPrivate }),
    maxUploadBytes: config.maxUploadBytes,
    documentLimits: config.documentLimits,
    warn,
    now: deps.now,
    openDocuments: deps.openDocuments,
  });
  const reminders = createRemindersModule({ db: store.db, conversations: conversations.port });
  const memory = createMemoryModule({ store, semantic: retrieval.semantic, warn });
  const box = createSecretBox(loadSecretKey(store.dataDir, config.secretKey));
  const signIn = createSignInModule({
    store,
    box,
    config: config.oauth,
    secureCookies: config.secureCookies,
    ...(deps.now ? { now: () => deps.now!().getTime() } : {}),
    warn,
  });
  const accounts = createAccountsModule({
    signIn: signIn.port,
    ...(deps.connectImap ? { connect: deps.connectImap } : {}),
    store,
    jobs,
    box,
    knowledge: knowledge.mail,
    search: retrieval.search,
    rule: { allowPrivate: config.fetchAllowPrivate, allowHosts: config.accountAllowHosts },
    maxMessageBytes: config.maxUploadBytes,
    defaultTimeZone: config.defaultTimeZone,
    warn,
  });
  const backup = createBackupModule({
    store,
    snapshotsDir: shared ? path.join(store.uploadsDir, "snapshots") : undefined,
    knowledge: knowledge.backup,
    retrieval: retrieval.backup,
    conversations: conversations.port,
    parts: [memory.backup, ...accounts.backupParts],
    warn,
  });
  const externalTools = createExternalToolsModule({
    db: store.db,
    hub: createMcpHub({ configPath: config.mcp.configPath, timeoutMs: config.mcp.timeoutMs, log: warn }),
    approvalTimeoutMs: config.mcp.approvalTimeoutMs,
    approvals:
      store.engine === "postgres"
        ? await createSharedApprovals({ db: store.db, signals: store.signals, timeoutMs: config.mcp.approvalTimeoutMs, warn })
        : undefined,
    maxResultChars: config.mcp.maxResultChars,
    rule: { allowPrivate: config.fetchAllowPrivate, allowHosts: config.accountAllowHosts },
    signIn: signIn.port,
    publicUrl: config.oauth.publicUrl,
    clientMetadataUrl: config.mcp.clientMetadataUrl,
    secureCookies: config.secureCookies,
    checkToolSchema: providers.llm?.checkToolSchema,
    warn,
  });
  const push = createPushModule({
    db: store.db,
    box,
    allowPrivate: config.fetchAllowPrivate,
    contact: config.pushContact,
    reminders: reminders.port,
    timeZone: accounts.calendar.timeZone,
    // Whether web push is among the kind's targets (Settings > Channels); the channels module is built below.
    delivers: (userId, kind) => channels.pushWanted(userId, kind),
    now: deps.now,
    warn,
  });
  // Every approval a turn asks for is watched, so a card shown in a channel closes when it is answered anywhere.
  const approvals = watchApprovals(externalTools.approvals);
  const commitments = createCommitmentsModule({
    db: store.db,
    jobs,
    llm: providers.llm,
    search: retrieval.search,
    reminders: reminders.port,
    people: accounts.mail.people,
    now: deps.now,
    warn,
  });
  const channels: ChannelsModule = createChannelsModule({
    db: store.db,
    box,
    publicUrl: config.publicUrl,
    telegramApiRoot: config.channels.telegramApiRoot,
    slackApiUrl: config.channels.slackApiUrl,
    maxFileBytes: config.maxUploadBytes,
    mailbox: accounts.mailbox,
    approvals,
    conversations: conversations.port,
    starter: conversations.starter,
    messages: (userId, conversationId) => conversations.messages.messages(userId, conversationId),
    files: knowledge.received,
    push: push.runEvent,
    reminders: reminders.port,
    timeZone: accounts.calendar.timeZone,
    reminderDue: { at: reminderDueAt, now: reminderDueNow },
    now: deps.now,
    warn,
    info: (message, detail) => app.log.info(detail, message),
  });
  const people = createPeopleModule({
    db: store.db,
    jobs,
    llm: providers.llm,
    openCommitments: commitments.port.open,
    itemText: retrieval.search.itemText,
    now: deps.now,
    warn,
  });
  accounts.onSynced((userId) => people.synced(userId));
  const triage = createTriageModule({
    db: store.db,
    jobs,
    llm: providers.llm,
    people: people.port,
    inbox: accounts.inbox,
    itemText: retrieval.search.itemText,
    timeZone: accounts.calendar.timeZone,
    now: deps.now,
    warn,
  });
  accounts.onSynced((userId, kind) => {
    if (kind === "mail") triage.synced(userId);
  });
  const dossiers = createDossiersModule({
    db: store.db,
    people: people.port,
    starter: conversations.starter,
    messages: conversations.messages,
    notes: knowledge.notes,
    notify: channels.runEvent,
    now: deps.now,
    warn,
  });
  const schedules = createSchedulesModule({
    store,
    jobs,
    conversations: conversations.port,
    starter: conversations.starter,
    now: deps.now,
    schedulerTickMs: config.schedulerTickMs,
    briefing: {
      calendar: accounts.calendar,
      reminders: reminders.port,
      commitments: commitments.port,
      mail: accounts.mail,
      llm: providers.llm,
      messages: conversations.messages,
    },
    defaultTimeZone: config.defaultTimeZone,
    notify: channels.runEvent,
    mailText: retrieval.search.itemText,
    weeklyReview: { commitments: commitments.port },
    warn,
    debug: (message) => app.log.debug(message),
  });
  // Mail triggers look at each finished mail sync's new mail (decision 105).
  accounts.onSynced((userId, kind) => {
    if (kind === "mail") void schedules.mailSynced(userId);
  });
  const documentsOut = createDocumentsOutModule({
    db: store.db,
    files: knowledge.generated,
    conversations: conversations.reader,
    timeZone: accounts.calendar.timeZone,
    now: deps.now,
  });
  const assistant = createAssistantModule({
    llm: providers.llm,
    webSearch: providers.webSearch,
    conversations: conversations.messages,
    search: retrieval.search,
    reminders: reminders.port,
    memory: memory.port,
    approvals: approvals.port,
    mail: accounts.mail,
    calendar: accounts.calendar,
    attachments: knowledge.attachments,
    resources: externalTools.resources,
    maxToolSteps: config.maxToolSteps,
    pages: knowledge.pages,
    files: knowledge.files,
    shares: {
      byName: knowledge.files.byName,
      share: knowledge.shares.share,
      timeZone: accounts.calendar.timeZone,
      origin: config.publicUrl,
      now: () => deps.now?.() ?? new Date(),
    },
    research: config.research,
    toolSources: [externalTools.tools.toolsFor],
    moreTools: [...schedules.tools, ...commitments.tools, ...documentsOut.tools, ...people.tools],
    warn,
  });
  // Scheduled runs are jobs whose handler runs the assistant's turns; the assistant offers scheduleTask (decision 086).
  const webSearchSetUp = providers.webSearch.kind === "backend" || (providers.webSearch.kind === "gemini" && Boolean(providers.llm?.searchWeb));
  schedules.runWith({ turns: assistant.turns, webSearch: webSearchSetUp ? assistant.webSearch : null });
  // A channel's messages are turns of the assistant's own turn (decision 075).
  channels.runWith({ turns: assistant.conversationTurns });
  const modules: AppModule[] = [
    createHealthModule({ version: SAGE_VERSION }),
    auth,
    retrieval,
    knowledge,
    backup,
    conversations,
    reminders,
    memory,
    assistant,
    externalTools,
    signIn,
    accounts,
    schedules,
    commitments,
    push,
    channels,
    documentsOut,
    people,
    triage,
    dossiers,
    createCalendarFeedModule({
      db: store.db,
      box,
      reminders: reminders.port,
      defaultTimeZone: config.defaultTimeZone,
      timeZoneChanged: accounts.syncCalendarsOf,
    }),
  ];

  const routes = await registerRouteContracts(app, { checkResponses: deps.checkResponses ?? false, version: SAGE_VERSION });
  await app.register(fastifyCookie);
  registerSlowClientLimits(app, config.slowClients);
  registerErrorHandler(app);
  // First of the checks: a foreign Host (DNS rebinding) is refused before sessions and origins are looked at.
  registerHostCheck(app, createHostAllowList({ boundHost: config.host, allowedHosts: config.allowedHosts }));
  registerJsonBodyParser(app);
  registerMultipart(app, notJson);
  registerOriginCheck(app);
  registerSessionGuard(app, auth);
  for (const module of modules) await module.register(app);
  registerOpenApiRoute(app);
  // Jobs start once every module has registered its kinds, recovering those a crash interrupted.
  if (deps.startJobsOn === "listen") app.addHook("onListen", () => void jobs.start().catch((error: unknown) => app.log.error(error, "jobs could not start")));
  else app.addHook("onReady", () => jobs.start());
  app.addHook("onClose", () => jobs.stop());
  await registerWebApp(app, config.webDir);

  return {
    vectorSearch: searchIndex.vectorSearch,
    app,
    accountsReady: auth.accountsReady,
    routes,
    jobs,
    blobs,
    knowledgeIndex: retrieval.index,
    schedules: schedules.control,
    commitments: commitments.control,
    people: people.control,
    triage: triage.control,
    dossiers: dossiers.control,
    // Runs' news reaches push through the channels module's targets: waiting for pushes waits for that too.
    push: {
      ...push.control,
      async idle() {
        await channels.control.idle();
        await push.control.idle();
      },
    },
    channels: channels.control,
    createUser: auth.createUser,
    syncDueCalendars: accounts.syncDueCalendars,
    syncDueMail: accounts.syncDueMail,
  };
}
