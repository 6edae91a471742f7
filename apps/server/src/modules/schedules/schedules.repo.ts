import type { Updateable } from "kysely";
import type { Store } from "../../store/open-store.ts";
import type { ScheduleRunsTable, SchedulesTable } from "../../store/schema.ts";

const COLUMNS = [
  "id",
  "userId",
  "title",
  "prompt",
  "rrule",
  "timezone",
  "conversationId",
  "paused",
  "nextRunAt",
  "template",
  "options",
  "createdAt",
  "updatedAt",
  "derivedFrom",
  "triggerKind",
  "triggerMatch",
  "triggerMinutes",
  "triggerAfterId",
] as const;
const RUN_COLUMNS = [
  "id",
  "scheduleId",
  "userId",
  "dueAt",
  "startedAt",
  "finishedAt",
  "status",
  "late",
  "manual",
  "conversationId",
  "messageIds",
  "error",
] as const;

export interface ScheduleRow {
  id: number;
  userId: number;
  title: string;
  prompt: string;
  rrule: string;
  timezone: string;
  conversationId: number | null;
  paused: number;
  nextRunAt: string | null;
  /** "briefing" for the morning briefing (assembled by the server), null for a prompt. */
  template: string | null;
  /** The template's JSON settings. */
  options: string;
  createdAt: string;
  updatedAt: string;
  /** JSON ContentSource when the prompt came from someone else's words (issue 47). */
  derivedFrom: string | null;
  /** What sets it off (decision 105): "time", "mail", "before-event" or "webhook". */
  triggerKind: string;
  triggerMatch: string | null;
  triggerMinutes: number | null;
  /** The last synced mail a mail trigger looked at. */
  triggerAfterId: number | null;
}

type TriggerFields = "triggerKind" | "triggerMatch" | "triggerMinutes" | "triggerAfterId";

export type RunStatus = ScheduleRunsTable["status"];

export interface RunRow {
  id: number;
  scheduleId: number;
  userId: number;
  dueAt: string;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  late: number;
  manual: number;
  conversationId: number | null;
  messageIds: string;
  error: string | null;
}

type Claim = {
  schedule: ScheduleRow;
  dueAt: string;
  startedAt: string;
  late: boolean;
  manual: boolean;
  nextRunAt?: string | null;
};

/**
 * SQL for schedules and their runs; every user-facing query is scoped by the owner. On SQLite (a store with
 * prepared statements) the claim is one synchronous transaction; on PostgreSQL (Kysely alone) one async transaction
 * on a pooled connection (decision 058). Either way the unique (schedule_id, due_at) makes a second claim of an
 * occurrence, by this process or another, insert nothing.
 */
export function createSchedulesRepo(store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>) {
  const { db } = store;
  const claimSync = store.prepare && store.transaction ? sqliteClaim(store as Pick<Store, "db" | "prepare" | "transaction">) : null;

  return {
    list: (userId: number) => db.selectFrom("schedules").select(COLUMNS).where("userId", "=", userId).orderBy("id").execute() as Promise<ScheduleRow[]>,

    /** Any user's schedule (a scheduled run's job carries its id). */
    byId: (id: number) => db.selectFrom("schedules").select(COLUMNS).where("id", "=", id).executeTakeFirst() as Promise<ScheduleRow | undefined>,

    find: (userId: number, id: number) =>
      db.selectFrom("schedules").select(COLUMNS).where("userId", "=", userId).where("id", "=", id).executeTakeFirst() as Promise<ScheduleRow | undefined>,

    /** The user's morning briefing (or weekly review), if it was ever set up. */
    briefing: (userId: number, template: "briefing" | "weekly-review" = "briefing") =>
      db.selectFrom("schedules").select(COLUMNS).where("userId", "=", userId).where("template", "=", template).executeTakeFirst() as Promise<
        ScheduleRow | undefined
      >,

    /** Schedules set off by a kind of trigger that are not paused: one user's, or everyone's. */
    triggered: (kind: "mail" | "before-event", userId?: number) => {
      let query = db.selectFrom("schedules").select(COLUMNS).where("triggerKind", "=", kind).where("paused", "=", 0);
      if (userId !== undefined) query = query.where("userId", "=", userId);
      return query.orderBy("id").execute() as Promise<ScheduleRow[]>;
    },

    /** The webhook schedule whose secret has this hash, with the hash as stored. */
    byWebhook: (hash: string) =>
      db
        .selectFrom("schedules")
        .select([...COLUMNS, "webhookSecretHash"])
        .where("webhookSecretHash", "=", hash)
        .where("triggerKind", "=", "webhook")
        .executeTakeFirst() as Promise<(ScheduleRow & { webhookSecretHash: string }) | undefined>,

    /** The user's synced mail after `afterId`, oldest first. */
    mailAfter: (userId: number, afterId: number, limit: number) =>
      db
        .selectFrom("mailMessages")
        .select(["id", "subject", "fromAddress", "toAddress", "date", "itemId"])
        .where("userId", "=", userId)
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute(),

    /** The id of the user's newest synced mail (0 when none). */
    lastMailId: async (userId: number) =>
      Number(
        (
          await db
            .selectFrom("mailMessages")
            .select((eb) => eb.fn.max("id").as("id"))
            .where("userId", "=", userId)
            .executeTakeFirst()
        )?.id ?? 0,
      ),

    /** The notes the user added to meetings that started in [from, to) (the weekly review reads their decisions). */
    meetingNotes: (userId: number, from: string, to: string) =>
      db
        .selectFrom("eventNotes as n")
        .innerJoin("calendarEvents as e", "e.id", "n.eventId")
        .innerJoin("knowledgeItems as k", "k.id", "n.itemId")
        .leftJoin("knowledgeItemTexts as x", "x.itemId", "k.id")
        .select(["n.itemId", "k.name", "e.title", "e.startAt", "x.content"])
        .where("n.userId", "=", userId)
        .where("e.userId", "=", userId)
        .where("e.startAt", ">=", from)
        .where("e.startAt", "<", to)
        .orderBy("e.startAt")
        .orderBy("n.id")
        .execute(),

    /** The user's timed events starting in (from, to]. */
    eventsStarting: (userId: number, from: string, to: string) =>
      db
        .selectFrom("calendarEvents")
        .select(["id", "uid", "title", "location", "startAt", "endAt", "attendees", "description"])
        .where("userId", "=", userId)
        .where("allDay", "=", 0)
        .where("startAt", ">", from)
        .where("startAt", "<=", to)
        .orderBy("startAt")
        .execute(),

    /**
     * Claims a thing that set the schedule off (a mail, an event's occurrence, a webhook delivery) and its run, in one
     * transaction: answers the run's id and due time, or null when the same thing set it off before. Runs are unique
     * on (schedule, due time), so two things at the same millisecond take the next free one.
     */
    claimEvent: (schedule: ScheduleRow, eventKey: string, at: Date) =>
      db.transaction().execute(async (trx) => {
        const event = await trx
          .insertInto("scheduleTriggerEvents")
          .values({ scheduleId: schedule.id, eventKey, createdAt: at.toISOString() })
          .onConflict((conflict) => conflict.doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!event) return null;
        for (let offset = 0; ; offset++) {
          const dueAt = new Date(at.getTime() + offset).toISOString();
          const run = await trx
            .insertInto("scheduleRuns")
            .values(runValues({ schedule, dueAt, startedAt: at.toISOString(), late: false, manual: false }))
            .onConflict((conflict) => conflict.doNothing())
            .returning("id")
            .executeTakeFirst();
          if (run) return { runId: run.id, dueAt };
        }
      }),

    insert: (
      row: Omit<ScheduleRow, "id" | "paused" | "template" | "options" | "derivedFrom" | TriggerFields> &
        Partial<Pick<ScheduleRow, "paused" | "template" | "options" | "derivedFrom" | TriggerFields>> & { webhookSecretHash?: string },
    ) => db.insertInto("schedules").values(row).returning(COLUMNS).executeTakeFirstOrThrow() as Promise<ScheduleRow>,

    update: (userId: number, id: number, changes: Updateable<SchedulesTable>) =>
      db.updateTable("schedules").set(changes).where("userId", "=", userId).where("id", "=", id).returning(COLUMNS).executeTakeFirst() as Promise<
        ScheduleRow | undefined
      >,

    remove: async (userId: number, id: number) => {
      const result = await db.deleteFrom("schedules").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Schedules whose next occurrence is at or before `now` (the scheduler's tick). */
    due: (now: string) =>
      db
        .selectFrom("schedules")
        .select(COLUMNS)
        .where("paused", "=", 0)
        .where("nextRunAt", "is not", null)
        .where("nextRunAt", "<=", now)
        .orderBy("nextRunAt")
        .execute() as Promise<ScheduleRow[]>,

    /** The soonest occurrence of any schedule that is not paused. */
    earliestNextRun: async () =>
      (
        await db
          .selectFrom("schedules")
          .select((eb) => eb.fn.min("nextRunAt").as("nextRunAt"))
          .where("paused", "=", 0)
          .executeTakeFirst()
      )?.nextRunAt ?? null,

    /** Every schedule that is not paused (start-up looks for missed occurrences). */
    active: () => db.selectFrom("schedules").select(COLUMNS).where("paused", "=", 0).execute() as Promise<ScheduleRow[]>,

    /**
     * Claims one occurrence and moves the schedule on, in one transaction: answers the run id, or null when the
     * occurrence was claimed before (by an earlier tick, before a restart, or by another process).
     */
    async claim(claim: Claim): Promise<number | null> {
      if (claimSync) return claimSync(claim);
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto("scheduleRuns")
          .values(runValues(claim))
          .onConflict((conflict) => conflict.doNothing())
          .returning("id")
          .executeTakeFirst();
        if (claim.nextRunAt !== undefined) await trx.updateTable("schedules").set({ nextRunAt: claim.nextRunAt }).where("id", "=", claim.schedule.id).execute();
        return row?.id ?? null;
      });
    },

    updateRun: (id: number, changes: Updateable<ScheduleRunsTable>) => db.updateTable("scheduleRuns").set(changes).where("id", "=", id).execute(),

    /** The occurrence's run, made now if its job came first (a crash between queueing the job and making the row). */
    async ensureRun(claim: Omit<Claim, "nextRunAt">): Promise<RunRow> {
      await db
        .insertInto("scheduleRuns")
        .values(runValues(claim))
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      return (await db
        .selectFrom("scheduleRuns")
        .select(RUN_COLUMNS)
        .where("scheduleId", "=", claim.schedule.id)
        .where("dueAt", "=", claim.dueAt)
        .executeTakeFirstOrThrow()) as RunRow;
    },

    /** Ends an occurrence's run that is still going (its job ended without it); one already ended is left as it is. */
    endRun: (scheduleId: number, dueAt: string, changes: Pick<Updateable<ScheduleRunsTable>, "status" | "finishedAt" | "error">) =>
      db
        .updateTable("scheduleRuns")
        .set(changes)
        .where("scheduleId", "=", scheduleId)
        .where("dueAt", "=", dueAt)
        .where("status", "in", ["running", "waiting-approval"])
        .execute(),

    runs: (userId: number, scheduleId: number, limit = 100) =>
      db
        .selectFrom("scheduleRuns")
        .select(RUN_COLUMNS)
        .where("userId", "=", userId)
        .where("scheduleId", "=", scheduleId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute() as Promise<RunRow[]>,

    lastRuns: async (userId: number) => {
      const rows = (await db
        .selectFrom("scheduleRuns")
        .select(RUN_COLUMNS)
        .where("userId", "=", userId)
        .where(
          "id",
          "in",
          db
            .selectFrom("scheduleRuns")
            .select((eb) => eb.fn.max("id").as("id"))
            .where("userId", "=", userId)
            .groupBy("scheduleId"),
        )
        .execute()) as RunRow[];
      return new Map(rows.map((row) => [row.scheduleId, row]));
    },

    /** The latest occurrence run of a schedule (not Run now), if any. */
    lastOccurrence: (scheduleId: number) =>
      db
        .selectFrom("scheduleRuns")
        .select("dueAt")
        .where("scheduleId", "=", scheduleId)
        .where("manual", "=", 0)
        .orderBy("dueAt", "desc")
        .limit(1)
        .executeTakeFirst(),
  };
}

export type SchedulesRepo = ReturnType<typeof createSchedulesRepo>;

const runValues = (claim: Omit<Claim, "nextRunAt">) => ({
  scheduleId: claim.schedule.id,
  userId: claim.schedule.userId,
  dueAt: claim.dueAt,
  startedAt: claim.startedAt,
  status: "running" as const,
  late: claim.late ? 1 : 0,
  manual: claim.manual ? 1 : 0,
  conversationId: claim.schedule.conversationId,
});

/** SQLite's claim: prepared once, run in one synchronous transaction (nothing else runs on the connection meanwhile). */
function sqliteClaim(store: Pick<Store, "db" | "prepare" | "transaction">) {
  const { db } = store;
  const insertRun = store.prepare<{ id: number }>((argument) =>
    db
      .insertInto("scheduleRuns")
      .values({
        scheduleId: argument<number>(0),
        userId: argument<number>(1),
        dueAt: argument<string>(2),
        startedAt: argument<string>(3),
        status: "running",
        late: argument<number>(4),
        manual: argument<number>(5),
        conversationId: argument<number | null>(6),
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning("id"),
  );
  const setNextRun = store.prepare((argument) =>
    db
      .updateTable("schedules")
      .set({ nextRunAt: argument<string | null>(0) })
      .where("id", "=", argument<number>(1)),
  );
  return (claim: Claim): number | null =>
    store.transaction(() => {
      const { schedule } = claim;
      const row = insertRun.get(schedule.id, schedule.userId, claim.dueAt, claim.startedAt, claim.late ? 1 : 0, claim.manual ? 1 : 0, schedule.conversationId);
      if (claim.nextRunAt !== undefined) setNextRun.run(claim.nextRunAt, schedule.id);
      return row?.id ?? null;
    });
}
