import { describe, expect, it } from "vitest";
import { createScheduler } from "./scheduler.ts";
import type { ScheduleRow, SchedulesRepo } from "./schedules.repo.ts";

const schedule = { id: 7, userId: 3 } as ScheduleRow;
const now = new Date("2026-11-27T08:00:00Z");

/**
 * The run rows of one schedule by due time, and a queue whose worker starts the job at once: on a quiet queue the
 * job's handler makes the run's row (ensureRun) before Run now's own claim does.
 */
function setUp(workerFirst: boolean) {
  const runs = new Map<string, number>();
  const jobs = new Set<string>();
  const ensure = (dueAt: string) => {
    if (!runs.has(dueAt)) runs.set(dueAt, runs.size + 100);
    return runs.get(dueAt)!;
  };
  const repo = {
    claim: async ({ dueAt }: { dueAt: string }) => (runs.has(dueAt) ? null : ensure(dueAt)),
    ensureRun: async ({ dueAt }: { dueAt: string }) => ({ id: ensure(dueAt) }),
  } as unknown as SchedulesRepo;
  const queue = {
    async enqueueOnce(input: { uniqueKey: string; payload?: unknown }) {
      if (jobs.has(input.uniqueKey)) return undefined;
      jobs.add(input.uniqueKey);
      if (workerFirst) ensure((input.payload as { dueAt: string }).dueAt);
      return { id: jobs.size } as never;
    },
    idle: async () => {},
  };
  return { runs, scheduler: createScheduler({ repo, jobs: queue, now: () => now, log: () => {} }) };
}

describe("Run now", () => {
  it("answers the run it started even when the job's worker made the run first", async () => {
    const { runs, scheduler } = setUp(true);
    const runId = await scheduler.runNow(schedule);
    expect(runs.get(now.toISOString())).toBe(runId);
  });

  it("answers the run it made when the worker has not started yet", async () => {
    const { runs, scheduler } = setUp(false);
    expect(await scheduler.runNow(schedule)).toBe(runs.get(now.toISOString()));
  });

  it("refuses a second start in the same instant, in words", async () => {
    const { scheduler } = setUp(true);
    await scheduler.runNow(schedule);
    await expect(scheduler.runNow(schedule)).rejects.toMatchObject({
      status: 409,
      message: "This schedule was just started; wait a moment before running it again",
    });
  });
});
