import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { setImmediate as yieldToRequests } from "node:timers/promises";
import { AppError } from "../../http/app-error.ts";
import type { UnattendedTurnPort } from "../assistant/assistant.module.ts";
import type { ConversationStarterPort, ConversationsPort } from "../conversations/conversations.module.ts";
import { latestOccurrence, nextOccurrences, parseRecurrence } from "./recurrence.ts";
import type { ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";
import { composeBriefing, type BriefingSources } from "./morning-briefing.ts";

/** An occurrence run this long after its time was missed (the server was down): it is marked late. */
const LATE_AFTER_MS = 60_000;
/** The scheduler looks at least this often (one-minute granularity), and wakes early for a sooner occurrence. */
const TICK_MS = 60_000;
/**
 * Turns run at once; more wait their turn. High enough that a minute's occurrences all start on time (the bench's
 * 200 in one minute); a model's rate limit answers what it cannot take, and the turn says so.
 */
const CONCURRENT_RUNS = 256;
/** Claims made in one event-loop turn (each is one short synchronous transaction). */
const CLAIMS_PER_TURN = 8;

export interface SchedulerDeps {
  repo: SchedulesRepo;
  turns: UnattendedTurnPort;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  starter: ConversationStarterPort;
  now: () => Date;
  /** Tells the user's devices that a run finished or waits for Approve (web push). */
  notify?(userId: number, kind: "runs" | "approvals", title: string, conversationId: number, outcome?: string): void;
  /** What the morning briefing reads (its runs are assembled by the server, not a turn). */
  briefing?: BriefingSources;
  log(message: string, error?: unknown): void;
  /**
   * Other processes share the database (PostgreSQL): runs carry a lease this process renews, and start-up marks
   * interrupted only the runs whose lease ran out, not another process's (decision 058).
   */
  shared?: { leaseMs?: number };
}

/** How long a run's claim holds unless its process renews it (a third of it apart). */
export const RUN_LEASE_MS = 60_000;

/** The briefing's settings kept in the schedule's options. */
export function briefingOptions(schedule: Pick<ScheduleRow, "options">): { time: string; days: "daily" | "weekdays"; topics: string[] } {
  try {
    const options = JSON.parse(schedule.options) as { time?: string; days?: string; topics?: unknown };
    return {
      time: options.time ?? "07:00",
      days: options.days === "daily" ? "daily" : "weekdays",
      topics: Array.isArray(options.topics) ? options.topics.filter((topic): topic is string => typeof topic === "string") : [],
    };
  } catch {
    return { time: "07:00", days: "weekdays", topics: [] };
  }
}

/**
 * Runs each schedule's occurrences, each exactly once (decision 036): an occurrence is claimed by inserting its
 * (schedule, due time) row and moving the schedule on in one transaction before its turn starts, so neither a
 * second tick nor a restart can run it again. At start, runs a crash left running are marked interrupted (never
 * re-run), and a schedule whose time passed while the server was down runs its latest missed occurrence once, late.
 */
export function createScheduler(deps: SchedulerDeps) {
  const { repo, now } = deps;
  const running = new Set<Promise<void>>();
  const controller = new AbortController();
  // Every running turn listens for the close (its transcript saves what it wrote): one listener per run.
  setMaxListeners(0, controller.signal);
  const waiting: (() => void)[] = [];
  let active = 0;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  let stopped = false;
  const leaseMs = deps.shared?.leaseMs ?? RUN_LEASE_MS;
  const owner = randomUUID();
  /** The runs this process is running, whose leases it renews (shared databases). */
  const runIds = new Set<number>();
  let renewal: NodeJS.Timeout | undefined;
  const lease = () => (deps.shared ? { owner, expiresMs: Date.now() + leaseMs } : undefined);

  /** Waits for a free place; answers whether the run had to wait (its start is then when it got one). */
  async function slot(): Promise<boolean> {
    if (active < CONCURRENT_RUNS) {
      active++;
      return false;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
    return true;
  }
  function release() {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }

  async function conversationFor(schedule: ScheduleRow): Promise<number> {
    if (schedule.conversationId && (await deps.conversations.ownsConversation(schedule.userId, schedule.conversationId))) return schedule.conversationId;
    const { id } = await deps.starter.create(schedule.userId, schedule.title);
    await repo.update(schedule.userId, schedule.id, { conversationId: id });
    return id;
  }

  async function execute(runId: number, schedule: ScheduleRow) {
    const waited = await slot();
    let waitingApproval = false;
    try {
      if (controller.signal.aborted) {
        await repo.updateRun(runId, {
          status: "interrupted",
          finishedAt: now().toISOString(),
          error: "The server stopped before this run began; it was not run again.",
        });
        return;
      }
      const conversationId = await conversationFor(schedule);
      await repo.updateRun(runId, { conversationId, ...(waited ? { startedAt: now().toISOString() } : {}) });
      const outcome =
        schedule.template === "briefing" && deps.briefing
          ? await briefing(schedule, conversationId, deps.briefing)
          : await deps.turns.run({
              userId: schedule.userId,
              conversationId,
              prompt: schedule.prompt,
              signal: controller.signal,
              onWaitingApproval: () => {
                waitingApproval = true;
                deps.notify?.(schedule.userId, "approvals", schedule.title, conversationId);
                void repo.updateRun(runId, { status: "waiting-approval" }).catch((error: unknown) => deps.log("could not mark a run waiting", error));
              },
              onApprovalAnswered: () => {
                if (!waitingApproval) return;
                waitingApproval = false;
                void repo.updateRun(runId, { status: "running" }).catch((error: unknown) => deps.log("could not mark a run running", error));
              },
            });
      // What a run wrote shows as unread on its conversation until the user opens it.
      if (outcome.messageIds.length > 0) await deps.starter.markUnread(schedule.userId, conversationId, now().toISOString());
      // Closing the server aborts the turn: what it wrote is saved, and the run says it was interrupted.
      const status = controller.signal.aborted ? "interrupted" : outcome.status;
      await repo.updateRun(runId, {
        status,
        finishedAt: now().toISOString(),
        messageIds: JSON.stringify(outcome.messageIds),
        error: status === "interrupted" ? "The server stopped during this run; it was not run again." : (outcome.error ?? null),
      });
      if (status !== "interrupted") deps.notify?.(schedule.userId, "runs", schedule.title, conversationId, status);
    } catch (error) {
      if (!(error instanceof AppError)) deps.log("a scheduled run failed", error);
      const reason = error instanceof AppError ? error.message : "SAGE could not finish this run.";
      await repo
        .updateRun(runId, { status: "failed", finishedAt: now().toISOString(), error: reason })
        .catch((failure: unknown) => deps.log("could not record a failed run", failure));
    } finally {
      release();
    }
  }

  /** The morning briefing: one message the server assembles, with its citations (morning-briefing.ts). */
  async function briefing(schedule: ScheduleRow, conversationId: number, sources: BriefingSources) {
    const { topics } = briefingOptions(schedule);
    const { content, citations } = await composeBriefing(sources, {
      userId: schedule.userId,
      timezone: schedule.timezone,
      topics,
      now: now(),
      signal: controller.signal,
    });
    const [message] = await sources.messages.appendMessages(schedule.userId, conversationId, [{ role: "model", content, citations }]);
    return { status: "succeeded" as const, messageIds: message ? [message.id] : [], error: undefined as string | undefined };
  }

  function launch(runId: number, schedule: ScheduleRow) {
    runIds.add(runId);
    const run = execute(runId, schedule).finally(() => {
      running.delete(run);
      runIds.delete(runId);
    });
    running.add(run);
  }

  /** Shared: renews this process's runs and marks interrupted the runs of processes that stopped renewing theirs. */
  async function renewAndLookAround() {
    await repo.renewLeases(owner, [...runIds], Date.now() + leaseMs);
    const interrupted = await repo.interruptLeftRunning(now().toISOString(), { leaseEndedBy: Date.now() });
    if (interrupted > 0) deps.log(`${interrupted} scheduled run(s) of a process that stopped were marked interrupted, not run again`);
  }

  /** Claims the schedule's due occurrence (the latest, when several passed); answers the run to start, if any. */
  async function claim(schedule: ScheduleRow, at: Date): Promise<[number, ScheduleRow][]> {
    let dueAt: Date;
    let next: string | null;
    try {
      const recurrence = parseRecurrence(schedule.rrule, schedule.timezone);
      const scheduled = new Date(schedule.nextRunAt!);
      dueAt = latestOccurrence(recurrence, new Date(scheduled.getTime() - 1), at) ?? scheduled;
      next = nextOccurrences(recurrence, at, 1)[0]?.toISOString() ?? null;
    } catch (error) {
      deps.log(`schedule ${schedule.id} has a rule that no longer reads; it is left alone`, error);
      void repo.update(schedule.userId, schedule.id, { nextRunAt: null });
      return [];
    }
    const late = at.getTime() - dueAt.getTime() > LATE_AFTER_MS;
    const runId = await repo.claim({
      schedule,
      dueAt: dueAt.toISOString(),
      startedAt: now().toISOString(),
      late,
      manual: false,
      nextRunAt: next,
      lease: lease(),
    });
    return runId === null ? [] : [[runId, schedule]];
  }

  async function tickOnce() {
    const at = now();
    // Every due occurrence is claimed first (each one transaction; synchronous on SQLite), then the runs start together:
    // a run's start does not wait for other runs' turns. Between claims and between launches the event loop
    // answers waiting requests: a run's first steps are synchronous store reads, and 200 of them back to back
    // held /api/health for 2.8 s.
    const claimed: [number, ScheduleRow][] = [];
    for (const schedule of await repo.due(at.toISOString())) {
      if (stopped) break;
      claimed.push(...(await claim(schedule, at)));
      if (claimed.length % CLAIMS_PER_TURN === 0) await yieldToRequests();
    }
    for (const [runId, schedule] of claimed) {
      launch(runId, schedule);
      await yieldToRequests();
    }
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    void repo
      .earliestNextRun()
      .then((earliest) => {
        if (stopped) return;
        const untilMinute = TICK_MS - (now().getTime() % TICK_MS);
        const untilNext = earliest ? Math.max(0, new Date(earliest).getTime() - now().getTime()) : untilMinute;
        timer = setTimeout(() => void tick().finally(schedule), Math.min(untilMinute, untilNext) + 5);
        timer.unref();
      })
      .catch((error: unknown) => deps.log("the scheduler could not look ahead", error));
  }

  /** Runs what is due now; one tick at a time. */
  function tick(): Promise<void> {
    ticking ??= tickOnce()
      .catch((error: unknown) => deps.log("a scheduler tick failed", error))
      .finally(() => (ticking = null));
    return ticking;
  }

  return {
    tick,
    /** A schedule changed: look again for the soonest occurrence. */
    changed: () => schedule(),
    async start() {
      const interrupted = await repo.interruptLeftRunning(now().toISOString(), deps.shared ? { leaseEndedBy: Date.now() } : {});
      if (interrupted > 0) deps.log(`${interrupted} scheduled run(s) were cut by a restart; marked interrupted, not run again`);
      if (deps.shared) {
        renewal = setInterval(() => void renewAndLookAround().catch((error: unknown) => deps.log("could not renew scheduled runs", error)), leaseMs / 3);
        renewal.unref();
      }
      await tick();
      schedule();
    },
    /** Run now: a run of its own, outside the rule's occurrences. */
    async runNow(schedule: ScheduleRow): Promise<number> {
      const at = now().toISOString();
      const runId = await repo.claim({ schedule, dueAt: at, startedAt: at, late: false, manual: true, lease: lease() });
      if (runId === null) throw new AppError("already_running", 409, "This schedule was just started; wait a moment before running it again");
      launch(runId, schedule);
      return runId;
    },
    /** Settles when every run started so far has finished (tests, the bench). */
    async idle() {
      while (running.size > 0 || ticking) await Promise.all([...running, ticking]);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(renewal);
      controller.abort();
      await Promise.allSettled([...running]);
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
