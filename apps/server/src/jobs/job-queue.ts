import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Signals } from "../store/postgres/pg-signals.ts";
import type { Database, JobRow } from "../store/schema.ts";

export type Job = JobRow;

export interface JobContext<P = unknown> {
  job: Job;
  payload: P;
  /** Records progress (shown to users for long jobs such as re-vectorising). */
  progress(processed: number, total: number): Promise<void>;
  /** Aborted when the queue stops (the server closes): a long job ends what it can and records that it was cut. */
  signal: AbortSignal;
}

export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<void>;

export interface HandlerOptions {
  /**
   * What to do at start-up with a job of this kind that was running when the server stopped:
   * 'resume' queues it again (handlers must then be idempotent), 'fail' marks it failed.
   */
  onInterrupted?: "resume" | "fail";
  /**
   * How many times a job of this kind is resumed after interruptions (default 2). A job that keeps dying with
   * the server (a document that crashes it, say) must not be retried at every start.
   */
  maxResumes?: number;
  /** Runs after a job failed for good (its error recorded); e.g. to mark the item it worked on. */
  onFailed?: (job: Job, error: string) => Promise<void>;
  /**
   * A job that spends its time waiting on another server (a mail or calendar sync) runs beside the `concurrency`
   * jobs instead of holding one of their slots: the documents a mail sync adds are read while it waits for the next
   * batch, instead of one at a time behind it.
   */
  waitsOnNetwork?: boolean;
  /**
   * At most one job of this kind runs at a time; the other slot stays free for other kinds (an upload is read while a
   * mailbox is). Two of a mail sync's batches read at once only fought each other for the two cores (decision 049).
   */
  oneAtATime?: boolean;
  /**
   * Jobs of this kind run in a pool of their own of this size, beside the others: a scheduled run mostly waits on a
   * model, and a minute's 200 occurrences must all start on time (decision 086).
   */
  slots?: number;
}

export interface EnqueueInput {
  kind: string;
  userId: number;
  itemId?: number | null;
  payload?: unknown;
}

export interface UniqueEnqueueInput extends EnqueueInput {
  /** Names the work: a second job with the same key is never queued, by this process or another. */
  uniqueKey: string;
}

/**
 * A persisted background queue over the `jobs` table: handlers are registered per kind, jobs move
 * queued -> processing -> done | failed (with the reason), at most `concurrency` run at once, and a job
 * interrupted by a crash is resumed or failed when `start()` runs at the next start-up.
 */
export interface JobQueue {
  register<P>(kind: string, handler: JobHandler<P>, options?: HandlerOptions): void;
  /** Persists a queued job and schedules it (once the queue has started). */
  enqueue(input: EnqueueInput): Promise<Job>;
  /** As enqueue, unless a job with the key was ever queued: then nothing is, and the answer is undefined. */
  enqueueOnce(input: UniqueEnqueueInput): Promise<Job | undefined>;
  get(id: number): Promise<Job | undefined>;
  /** The newest job that worked on the item, if any. */
  latestForItem(itemId: number): Promise<Job | undefined>;
  /** The user's newest job of a kind, if any (e.g. to show a re-vectorise's progress). */
  latestOfKind(userId: number, kind: string): Promise<Job | undefined>;
  /** Resolves with the job once it is done or failed. */
  waitFor(id: number): Promise<Job>;
  /** Recovers interrupted jobs, then starts running queued ones. */
  start(): Promise<void>;
  /** Resolves when nothing is running or runnable (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops taking new jobs and waits for running ones. */
  stop(): Promise<void>;
}

export const INTERRUPTED_REASON = "Interrupted by a server restart";
const MAX_RESUMES = 2;
/** How many jobs that wait on other servers run at once, beside the `concurrency` ones. */
const WAITING_CONCURRENCY = 2;
/** Why a job interrupted once more than its kind resumes is failed instead. */
export const interruptedTooOften = (runs: number) => `${INTERRUPTED_REASON} ${runs} times, so it was not resumed again`;

const JOBS_CHANNEL = "sage_jobs";
/** Runs a job gets when it keeps finding the store busy (SQLITE_BUSY), and the pause before each next one. */
const BUSY_RUNS = 3;
const BUSY_RETRY_MS = 200;

/** How long a claim on a job holds unless its process renews it (a third of it apart). */
export const JOB_LEASE_MS = 30_000;

export function createJobQueue(options: {
  db: Kysely<Database>;
  concurrency?: number;
  log?: (message: string, error?: unknown) => void;
  /**
   * Other SAGE processes use the same database (PostgreSQL). A job then belongs to the process that claimed it while
   * that process renews its lease: a process that starts takes over only the jobs whose lease ran out, and every
   * process looks for such jobs, and for jobs another process queued, as it renews its own (decision 053). Alone on
   * its database (SQLite), every job still marked running at start was interrupted by the restart.
   */
  shared?: boolean;
  leaseMs?: number;
  /** Shared: tells the other processes at once that a job was queued or finished, instead of at their next renewal. */
  signals?: Signals;
  /**
   * The time leases are granted and judged by (milliseconds, as Date.now): a test moves it on to let a lease run out
   * instead of waiting for it, and holds it to prove a lease still holds.
   */
  clock?: () => number;
}): JobQueue {
  const { db } = options;
  const leaseMs = options.leaseMs ?? JOB_LEASE_MS;
  /** This queue's name on the jobs it claims. */
  const owner = randomUUID();
  let renewal: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const handlers = new Map<string, { handler: JobHandler<unknown>; options: HandlerOptions }>();
  /** The running jobs' ids, each with its kind and the pool it counts in (the shared slots, waiting, or its kind's own). */
  const running = new Map<number, { kind: string; pool: string }>();
  /** Aborted at stop: every running job's signal. */
  const stopping = new AbortController();
  const waiters = new Map<number, Array<(job: Job) => void>>();
  let idleWaiters: Array<() => void> = [];
  let started = false;
  /** The one start: a second call (another listen address) waits for the first. */
  let starting: Promise<void> | undefined;
  let stopped = false;
  let pumping = false;
  let pumpAgain = false;
  const clock = options.clock ?? Date.now;
  const now = () => new Date(clock()).toISOString();

  const fetchJob = (id: number) => db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();

  function settle(job: Job) {
    const list = waiters.get(job.id);
    waiters.delete(job.id);
    for (const resolve of list ?? []) resolve(job);
  }

  function checkIdle() {
    if (running.size > 0 || pumping) return;
    const list = idleWaiters;
    idleWaiters = [];
    for (const resolve of list) resolve();
  }

  async function run(job: Job) {
    const entry = handlers.get(job.kind)!;
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch {
      payload = {};
    }
    let failure: string | null = null;
    let busy = false;
    try {
      await entry.handler({
        job,
        payload,
        progress: async (processed, total) => {
          await db.updateTable("jobs").set({ processed, total, updatedAt: now() }).where("id", "=", job.id).execute();
        },
        signal: stopping.signal,
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      busy = String((error as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY") && job.attempts < BUSY_RUNS;
    }
    // The store was busy with another connection's write (SQLite's "database is locked"): nothing the job did is
    // wrong, so it runs again shortly instead of failing (handlers are idempotent, as for resumes).
    if (busy) {
      await db
        .updateTable("jobs")
        .set({ status: "queued", updatedAt: now(), leaseOwner: null, leaseExpiresMs: null })
        .where("id", "=", job.id)
        .where("leaseOwner", "=", owner)
        .execute();
      options.log?.(`job ${job.id} found the store busy; it runs again`);
      setTimeout(pumpSoon, BUSY_RETRY_MS).unref();
      return;
    }
    // Only while the job is still this queue's: one whose lease ran out (the process stalled) belongs to whichever
    // process took it over, and its outcome is that one's to write.
    const written = await db
      .updateTable("jobs")
      .set({ status: failure === null ? "done" : "failed", error: failure, updatedAt: now(), leaseOwner: null, leaseExpiresMs: null })
      .where("id", "=", job.id)
      .where("leaseOwner", "=", owner)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) === 0) {
      const current = await fetchJob(job.id);
      if (current && current.leaseOwner !== owner) {
        options.log?.(`job ${job.id} was taken over by another process; its outcome here is dropped`);
        return;
      }
    }
    if (failure !== null && entry.options.onFailed) {
      await entry.options.onFailed(job, failure).catch((error: unknown) => options.log?.("job onFailed hook failed", error));
    }
    // The row is gone when its item was deleted meanwhile (FK cascade): waiters still get an answer.
    const finished = await fetchJob(job.id);
    // Until here a waiter waits for this run (its row may say failed before onFailed has run); from here on, the row.
    running.delete(job.id);
    settle(finished ?? { ...job, status: "failed", error: failure ?? "The job's item was deleted" });
    tell({ finished: job.id });
  }

  /**
   * Queues again (or fails, past its resumes) each job marked running whose process is gone: at start alone on the
   * database every such job, shared only those whose lease ran out. Each is taken back with the owner and lease it
   * was read with, so of two processes recovering at once only one does it.
   */
  async function recoverInterrupted() {
    let query = db.selectFrom("jobs").selectAll().where("status", "=", "processing");
    if (options.shared) query = query.where((where) => where.or([where("leaseExpiresMs", "is", null), where("leaseExpiresMs", "<", clock())]));
    for (const job of await query.execute()) {
      if (running.has(job.id)) continue;
      const entry = handlers.get(job.kind);
      const resumable = entry?.options.onInterrupted !== "fail";
      // `attempts` counts runs, so the resumes so far are one less.
      const resume = resumable && job.attempts - 1 < (entry?.options.maxResumes ?? MAX_RESUMES);
      const reason = resume ? null : resumable ? interruptedTooOften(job.attempts) : INTERRUPTED_REASON;
      let takeBack = db
        .updateTable("jobs")
        .set({ status: resume ? "queued" : "failed", error: reason, updatedAt: now(), leaseOwner: null, leaseExpiresMs: null })
        .where("id", "=", job.id)
        .where("status", "=", "processing");
      takeBack = job.leaseOwner === null ? takeBack.where("leaseOwner", "is", null) : takeBack.where("leaseOwner", "=", job.leaseOwner);
      takeBack = job.leaseExpiresMs === null ? takeBack.where("leaseExpiresMs", "is", null) : takeBack.where("leaseExpiresMs", "=", job.leaseExpiresMs);
      const taken = await takeBack.executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0 || reason === null) continue;
      await entry?.options.onFailed?.(job, reason).catch((error: unknown) => options.log?.("job onFailed hook failed", error));
    }
  }

  /** Shared: what other processes wait for (a job to run, a job's end), published on the jobs channel. */
  function tell(news: { queued: true } | { finished: number }) {
    options.signals?.publish(JOBS_CHANNEL, JSON.stringify(news)).catch((error: unknown) => options.log?.("could not tell other processes about a job", error));
  }

  /** Answers the waiters of jobs another process ran, once their rows say they ended. */
  async function settleFinishedElsewhere(ids: Iterable<number>) {
    for (const id of ids) {
      if (!waiters.has(id) || running.has(id)) continue;
      const job = await fetchJob(id);
      if (job && (job.status === "done" || job.status === "failed")) settle(job);
    }
  }

  /** Shared: renews the leases of the jobs running here, takes over those of processes that died, and pumps. */
  async function renewAndLookAround() {
    if (running.size > 0) {
      await db
        .updateTable("jobs")
        .set({ leaseExpiresMs: clock() + leaseMs })
        .where("id", "in", [...running.keys()])
        .where("leaseOwner", "=", owner)
        .execute();
    }
    // Stopping: the jobs still running keep their leases until they end, and nothing new is taken.
    if (stopped) return;
    await settleFinishedElsewhere([...waiters.keys()]);
    await recoverInterrupted();
    await pump();
  }

  async function begin() {
    await recoverInterrupted();
    started = true;
    unsubscribe = await options.signals?.subscribe(JOBS_CHANNEL, (payload) => {
      const news = JSON.parse(payload) as { queued?: true; finished?: number };
      if (news.queued) pumpSoon();
      if (news.finished !== undefined)
        void settleFinishedElsewhere([news.finished]).catch((error: unknown) => options.log?.("could not read a finished job", error));
    });
    if (options.shared) {
      renewal = setInterval(() => void renewAndLookAround().catch((error: unknown) => options.log?.("job lease renewal failed", error)), leaseMs / 3);
      renewal.unref();
    }
    await pump();
  }

  /** Which slots a kind's jobs count in: its own, the waiting ones (beside the others), or the shared working ones. */
  function poolOf(kind: string): string {
    const handlerOptions = handlers.get(kind)?.options ?? {};
    return handlerOptions.slots ? `kind:${kind}` : handlerOptions.waitsOnNetwork ? "waiting" : "working";
  }
  const capacityOf = (handlerOptions: HandlerOptions) => handlerOptions.slots ?? (handlerOptions.waitsOnNetwork ? WAITING_CONCURRENCY : concurrency);

  /** Pumps without waiting: a failed claim (the database unreachable for a moment) is logged, and the next pump retries. */
  function pumpSoon() {
    pump().catch((error: unknown) => options.log?.("could not claim jobs", error));
  }

  /** Claims runnable jobs up to the concurrency bound; re-entrant calls fold into one more pass. */
  async function pump() {
    if (!started || stopped) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        while (!stopped) {
          const inPool = new Map<string, number>();
          for (const job of running.values()) inPool.set(job.pool, (inPool.get(job.pool) ?? 0) + 1);
          const runningKinds = new Set([...running.values()].map((job) => job.kind));
          const kinds = [...handlers]
            .filter(([kind, entry]) => (inPool.get(poolOf(kind)) ?? 0) < capacityOf(entry.options) && !(entry.options.oneAtATime && runningKinds.has(kind)))
            .map(([kind]) => kind);
          if (kinds.length === 0) break;
          let query = db.selectFrom("jobs").selectAll().where("status", "=", "queued").where("kind", "in", kinds);
          if (running.size > 0) query = query.where("id", "not in", [...running.keys()]);
          const next = await query.orderBy("id").limit(1).executeTakeFirst();
          if (!next) break;
          const claimed = await db
            .updateTable("jobs")
            .set({ status: "processing", attempts: next.attempts + 1, updatedAt: now(), leaseOwner: owner, leaseExpiresMs: clock() + leaseMs })
            .where("id", "=", next.id)
            .where("status", "=", "queued")
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) === 0) continue;
          running.set(next.id, { kind: next.kind, pool: poolOf(next.kind) });
          const job = { ...next, status: "processing" as const, attempts: next.attempts + 1, leaseOwner: owner };
          void run(job)
            .catch((error: unknown) => options.log?.(`job ${job.id} bookkeeping failed`, error))
            .finally(() => {
              running.delete(job.id);
              pumpSoon();
              checkIdle();
            });
        }
      } while (pumpAgain && !stopped);
    } finally {
      pumping = false;
      checkIdle();
    }
  }

  async function insert(input: EnqueueInput & { uniqueKey?: string }): Promise<Job | undefined> {
    const timestamp = now();
    const job = await db
      .insertInto("jobs")
      .values({
        kind: input.kind,
        userId: input.userId,
        itemId: input.itemId ?? null,
        payload: JSON.stringify(input.payload ?? {}),
        status: "queued",
        createdAt: timestamp,
        updatedAt: timestamp,
        uniqueKey: input.uniqueKey ?? null,
      })
      .onConflict((conflict) => conflict.column("uniqueKey").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!job) return undefined;
    pumpSoon();
    tell({ queued: true });
    return job;
  }

  return {
    register(kind, handler, handlerOptions = {}) {
      if (handlers.has(kind)) throw new Error(`a job handler for "${kind}" is already registered`);
      handlers.set(kind, { handler: handler as JobHandler<unknown>, options: handlerOptions });
      pumpSoon();
    },

    async enqueue(input) {
      return (await insert(input))!;
    },

    enqueueOnce: (input) => insert(input),

    get: fetchJob,

    latestForItem: (itemId) => db.selectFrom("jobs").selectAll().where("itemId", "=", itemId).orderBy("id", "desc").executeTakeFirst(),

    latestOfKind: (userId, kind) =>
      db.selectFrom("jobs").selectAll().where("userId", "=", userId).where("kind", "=", kind).orderBy("id", "desc").executeTakeFirst(),

    async waitFor(id) {
      const current = await fetchJob(id);
      if (!current) throw new Error(`job ${id} does not exist`);
      // A job running here is answered by its run, once its onFailed hook is done too.
      const ended = (job: Job) => (job.status === "done" || job.status === "failed") && !running.has(id);
      if (ended(current)) return current;
      return new Promise<Job>((resolve) => {
        const list = waiters.get(id) ?? [];
        list.push(resolve);
        waiters.set(id, list);
        // The job may have finished between the read above and registering the waiter.
        void fetchJob(id).then((job) => {
          if (job && ended(job)) settle(job);
        });
      });
    },

    start() {
      starting ??= begin();
      return starting;
    },

    idle() {
      if (running.size === 0 && !pumping) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },

    async stop() {
      stopped = true;
      unsubscribe?.();
      stopping.abort();
      if (running.size > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
      clearInterval(renewal);
    },
  };
}
