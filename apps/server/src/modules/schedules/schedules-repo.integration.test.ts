import { expect, it } from "vitest";
import { openPostgresDb } from "../../store/postgres/open-postgres-db.ts";
import { describeOnPostgres } from "../../test/test-databases.ts";
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

  it("a process that starts marks interrupted only the runs whose process stopped renewing their lease", async () => {
    const database = await databases.open();
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
      const claim = (dueAt: string, expiresMs: number) =>
        repo.claim({ schedule, dueAt, startedAt: at, late: false, manual: false, lease: { owner: "process-a", expiresMs } });
      const live = (await claim("2026-11-28T07:00:00.000Z", Date.now() + 60_000))!;
      const abandoned = (await claim("2026-11-28T08:00:00.000Z", Date.now() - 1))!;
      // Another process renewing what it does not run changes nothing.
      await repo.renewLeases("process-b", [abandoned], Date.now() + 60_000);

      expect(await repo.interruptLeftRunning(new Date().toISOString(), { leaseEndedBy: Date.now() })).toBe(1);
      const runs = new Map((await repo.runs(3, schedule.id)).map((run) => [run.id, run]));
      expect(runs.get(live)).toMatchObject({ status: "running", error: null });
      expect(runs.get(abandoned)).toMatchObject({ status: "interrupted", error: "The server stopped during this run; it was not run again." });
      // Its own process renews it; once it stops, the next look finds it.
      await repo.renewLeases("process-a", [live], Date.now() - 1);
      expect(await repo.interruptLeftRunning(new Date().toISOString(), { leaseEndedBy: Date.now() })).toBe(1);
    } finally {
      await database.close();
    }
  });
});
