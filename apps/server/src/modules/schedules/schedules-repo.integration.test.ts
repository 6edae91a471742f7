import { expect, it } from "vitest";
import { createJobQueue } from "../../jobs/job-queue.ts";
import { openPostgresDb } from "../../store/postgres/open-postgres-db.ts";
import { describeOnPostgres } from "../../test/test-databases.ts";
import { SCHEDULED_RUN_JOB, scheduledRunHandler, scheduledRunKey, type ScheduledRunPayload } from "./scheduled-run.ts";
import { createSchedulesRepo } from "./schedules.repo.ts";

describeOnPostgres("scheduled runs on PostgreSQL", (databases) => {
  it("an occurrence claimed by several processes at once runs once, and the schedule moves on once", async () => {
    const database = await databases.open();
    const others = await Promise.all([openPostgresDb({ url: database.url! }), openPostgresDb({ url: database.url! })]);
    try {
      const at = "2026-11-28T07:00:00.000Z";
      await database.db.insertInto("users").values({ id: 3, username: "demo", passwordHash: "x", createdAt: at }).execute();
      const processes = [database, ...others].map((opened) => createSchedulesRepo({ db: opened.db }));
      const schedule = await processes[0]!.insert({
        userId: 3,
        title: "Morning briefing",
        prompt: "Brief me",
        rrule: "FREQ=DAILY;BYHOUR=7",
        timezone: "Europe/Paris",
        conversationId: null,
        nextRunAt: at,
        createdAt: at,
        updatedAt: at,
      });
      const claims = await Promise.all(
        processes.map((repo) => repo.claim({ schedule, dueAt: at, startedAt: at, late: false, manual: false, nextRunAt: "2026-11-29T07:00:00.000Z" })),
      );
      const won = claims.filter((id) => id !== null);
      expect(won).toHaveLength(1);
      expect(await processes[1]!.runs(3, schedule.id)).toEqual([expect.objectContaining({ id: won[0], dueAt: at, status: "running", manual: 0 })]);
      expect((await processes[2]!.find(3, schedule.id))?.nextRunAt).toBe("2026-11-29T07:00:00.000Z");
      // The next day's occurrence is a new claim.
      expect(await processes[2]!.claim({ schedule, dueAt: "2026-11-29T07:00:00.000Z", startedAt: at, late: false, manual: false })).not.toBeNull();
    } finally {
      await Promise.all(others.map((opened) => opened.close()));
      await database.close();
    }
  });

  it("a process that starts marks interrupted only the runs whose job's lease ran out, and runs neither again", async () => {
    const database = await databases.open();
    const queue = createJobQueue({ db: database.db, shared: true });
    try {
      const at = "2026-11-28T07:00:00.000Z";
      await database.db.insertInto("users").values({ id: 3, username: "demo", passwordHash: "x", createdAt: at }).execute();
      const repo = createSchedulesRepo({ db: database.db });
      const schedule = await repo.insert({
        userId: 3,
        title: "Digest",
        prompt: "Sum up",
        rrule: "FREQ=HOURLY",
        timezone: "UTC",
        conversationId: null,
        nextRunAt: at,
        createdAt: at,
        updatedAt: at,
      });
      // Two runs another process claimed: one it still renews, one whose process stopped.
      const claimed = async (dueAt: string, leaseExpiresMs: number) => {
        await repo.claim({ schedule, dueAt, startedAt: at, late: false, manual: false });
        const payload: ScheduledRunPayload = { scheduleId: schedule.id, dueAt, late: false, manual: false };
        await database.db
          .insertInto("jobs")
          .values({
            kind: SCHEDULED_RUN_JOB,
            userId: 3,
            payload: JSON.stringify(payload),
            status: "processing",
            attempts: 1,
            createdAt: at,
            updatedAt: at,
            uniqueKey: scheduledRunKey(schedule.id, dueAt),
            leaseOwner: "process-a",
            leaseExpiresMs,
          })
          .execute();
      };
      await claimed("2026-11-28T07:00:00.000Z", Date.now() + 60_000);
      await claimed("2026-11-28T08:00:00.000Z", Date.now() - 1);
      const turns: string[] = [];
      const { handler, options } = scheduledRunHandler({
        repo,
        turns: { run: async (request) => void turns.push(request.prompt) as never },
        conversations: { ownsConversation: async () => false },
        starter: { create: async () => ({ id: 1 }), markUnread: async () => {} } as never,
        now: () => new Date(),
        log: () => {},
      });
      queue.register(SCHEDULED_RUN_JOB, handler, options);
      await queue.start();
      expect((await repo.runs(3, schedule.id)).map((run) => [run.dueAt, run.status, run.error])).toEqual([
        ["2026-11-28T08:00:00.000Z", "interrupted", "The server stopped during this run; it was not run again."],
        ["2026-11-28T07:00:00.000Z", "running", null],
      ]);
      expect(turns).toEqual([]);
    } finally {
      await queue.stop();
      await database.close();
    }
  });
});
