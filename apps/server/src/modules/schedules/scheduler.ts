import { setImmediate as yieldToRequests } from "node:timers/promises";
import { AppError } from "../../http/app-error.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { latestOccurrence, nextOccurrences, parseRecurrence } from "./recurrence.ts";
import { SCHEDULED_RUN_JOB, scheduledRunKey, type ScheduledRunPayload } from "./scheduled-run.ts";
import type { ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";

/** An occurrence run this long after its time was missed (the server was down): it is marked late. */
const LATE_AFTER_MS = 60_000;
/** The scheduler looks at least this often (one-minute granularity), and wakes early for a sooner occurrence. */
const TICK_MS = 60_000;
/** Occurrences queued in one event-loop turn (each a job and a run row). */
const CLAIMS_PER_TURN = 8;

export interface SchedulerDeps {
  repo: SchedulesRepo;
  jobs: Pick<JobQueue, "enqueueOnce" | "idle">;
  now: () => Date;
  /** Each tick also looks for events coming up that set off before-event triggers (decision 105). */
  triggers?: { beforeEvents(): Promise<void> };
  log(message: string, error?: unknown): void;
  /** Told once a look for what is due at `at` has queued all it found. */
  looked?(at: Date): void;
  /** How often at least it looks (TICK_MS unless set: SAGE_SCHEDULER_TICK_S). */
  tickMs?: number;
}

/**
 * Computes what is due and queues it (decision 086): each occurrence is a `schedules.run` job unique on (schedule, due
 * time), with its run row, and the schedule moves on to its next occurrence. The job queue runs it, once, across
 * restarts and processes (scheduled-run.ts); a second tick, a restart or another process queues nothing more. A
 * schedule whose time passed while the server was down runs its latest missed occurrence once, late.
 */
export function createScheduler(deps: SchedulerDeps) {
  const { repo, now } = deps;
  const tickMs = deps.tickMs ?? TICK_MS;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  let stopped = false;

  /** Queues one occurrence and its run row: the run's id (null when the row was there already) and whether the job is new. */
  async function queue(schedule: ScheduleRow, occurrence: { dueAt: string; late: boolean; manual: boolean; nextRunAt?: string | null }) {
    const payload: ScheduledRunPayload = { scheduleId: schedule.id, dueAt: occurrence.dueAt, late: occurrence.late, manual: occurrence.manual };
    const job = await deps.jobs.enqueueOnce({
      kind: SCHEDULED_RUN_JOB,
      userId: schedule.userId,
      payload,
      uniqueKey: scheduledRunKey(schedule.id, occurrence.dueAt),
    });
    // Made (and the schedule moved on) whether or not the job was new: after a crash between the two, the next tick
    // finishes what the last one began; a run row that exists already makes nothing.
    const runId = await repo.claim({ schedule, startedAt: now().toISOString(), ...occurrence });
    return { runId, queued: job !== undefined };
  }

  /** Queues the schedule's due occurrence (the latest, when several passed). */
  async function claim(schedule: ScheduleRow, at: Date): Promise<void> {
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
      return;
    }
    await queue(schedule, { dueAt: dueAt.toISOString(), late: at.getTime() - dueAt.getTime() > LATE_AFTER_MS, manual: false, nextRunAt: next });
  }

  async function tickOnce() {
    const at = now();
    // Between claims the event loop answers waiting requests: 200 claims back to back held /api/health for 2.8 s.
    let claimed = 0;
    for (const schedule of await repo.due(at.toISOString())) {
      if (stopped) break;
      await claim(schedule, at);
      if (++claimed % CLAIMS_PER_TURN === 0) await yieldToRequests();
    }
    if (!stopped) await deps.triggers?.beforeEvents();
    deps.looked?.(at);
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    void repo
      .earliestNextRun()
      .then((earliest) => {
        if (stopped) return;
        const untilTick = tickMs - (now().getTime() % tickMs);
        const untilNext = earliest ? Math.max(0, new Date(earliest).getTime() - now().getTime()) : untilTick;
        timer = setTimeout(() => void tick().finally(schedule), Math.min(untilTick, untilNext) + 5);
        timer.unref();
      })
      .catch((error: unknown) => deps.log("the scheduler could not look ahead", error));
  }

  /** Queues what is due now; one tick at a time. */
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
      await tick();
      schedule();
    },
    /** Run now: a run of its own, outside the rule's occurrences. */
    async runNow(schedule: ScheduleRow): Promise<number> {
      const occurrence = { dueAt: now().toISOString(), late: false, manual: true };
      const { runId, queued } = await queue(schedule, occurrence);
      if (runId !== null) return runId;
      // This call's job, whose worker made the run's row before `queue` could (it starts at once on a quiet queue).
      if (queued) return (await repo.ensureRun({ schedule, startedAt: now().toISOString(), ...occurrence })).id;
      throw new AppError("already_running", 409, "This schedule was just started; wait a moment before running it again");
    },
    /** Settles once what was due is queued and the queue has nothing running (tests, the bench). */
    async idle() {
      await ticking;
      await deps.jobs.idle();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
