import type { KyselyPlugin } from "kysely";
import { afterEach, expect, it } from "vitest";
import { openPostgresDb } from "../store/postgres/open-postgres-db.ts";
import { openPgSignals, type Signals } from "../store/postgres/pg-signals.ts";
import { describeOnPostgres, type TestDatabase } from "../test/test-databases.ts";
import { deferred, jobQueueCases } from "./job-queue-test-helpers.ts";
import { createJobQueue, type JobQueue } from "./job-queue.ts";

describeOnPostgres("the job queue on PostgreSQL", (databases) => {
  jobQueueCases("PostgreSQL", databases.open);

  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A database with a user, and `processes` more pools on it: each stands for one SAGE process. */
  async function sharedDatabase(processes: number): Promise<TestDatabase[]> {
    const first = await databases.open();
    cleanups.push(() => first.close());
    await first.db.insertInto("users").values({ id: 1, username: "u", passwordHash: "x", createdAt: "2025-01-01" }).execute();
    const pools: TestDatabase[] = [];
    for (let index = 0; index < processes; index++) {
      const opened = await openPostgresDb({ url: first.url! });
      pools.push({ ...opened, url: first.url });
      cleanups.push(() => opened.close());
    }
    return pools;
  }

  function sharedQueue(database: TestDatabase, options: { leaseMs?: number; concurrency?: number; signals?: Signals; clock?: () => number } = {}): JobQueue {
    const queue = createJobQueue({
      db: database.db,
      shared: true,
      leaseMs: options.leaseMs ?? 600,
      concurrency: options.concurrency,
      signals: options.signals,
      clock: options.clock,
    });
    cleanups.push(() => queue.stop());
    return queue;
  }

  const statusOf = async (database: TestDatabase, id: number) =>
    database.db.selectFrom("jobs").select(["status", "attempts", "leaseOwner"]).where("id", "=", id).executeTakeFirstOrThrow();

  /**
   * The process's database, counting the jobs table reads it makes: each look-around (every third of a lease) reads
   * the expired leases and then the queued jobs, so a test can wait for another process to have looked, not sleep.
   */
  function watched(database: TestDatabase) {
    const reads = { count: 0 };
    const counter: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (node.kind === "SelectQueryNode") reads.count++;
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    return { database: { ...database, db: database.db.withPlugin(counter) }, reads };
  }

  // Gives up with the last value read after the suite's own poll limit (60 s), never sooner.
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting; last: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("runs each job once when two processes' queues share the database, and an idle process takes what a busy one queued", async () => {
    const [a, b] = await sharedDatabase(2);
    const runs: string[] = [];
    const queues = { a: sharedQueue(a!, { concurrency: 1 }), b: sharedQueue(b!, { concurrency: 1 }) };
    const hold = deferred();
    for (const [name, queue] of Object.entries(queues)) {
      queue.register<{ hold?: boolean }>("work", async ({ job, payload }) => {
        runs.push(`${name}:${job.id}`);
        if (payload.hold) await hold.promise;
      });
      await queue.start();
    }
    const held = await queues.a.enqueue({ kind: "work", userId: 1, payload: { hold: true } });
    await until(
      () => statusOf(a!, held.id),
      (row) => row.status === "processing",
    );
    // A is busy with the held job: what it queues now is run by B, which finds it as it renews its leases.
    const waiting = await queues.a.enqueue({ kind: "work", userId: 1 });
    await until(
      () => statusOf(a!, waiting.id),
      (row) => row.status === "done",
    );
    expect(runs).toContain(`b:${waiting.id}`);

    const many = [];
    for (let index = 0; index < 30; index++) many.push(await (index % 2 ? queues.a : queues.b).enqueue({ kind: "work", userId: 1 }));
    hold.resolve();
    for (const job of [held, ...many])
      await until(
        () => statusOf(a!, job.id),
        (row) => row.status === "done",
      );
    const ids = runs.map((run) => Number(run.split(":")[1]));
    expect(ids).toHaveLength(new Set(ids).size);
    expect(ids.sort((x, y) => x - y)).toEqual([held.id, waiting.id, ...many.map((job) => job.id)].sort((x, y) => x - y));
  });

  it("a process that starts leaves alone the jobs another process is running", async () => {
    const [a, b] = await sharedDatabase(2);
    const gate = deferred();
    const first = sharedQueue(a!);
    first.register("long", async () => gate.promise);
    await first.start();
    const job = await first.enqueue({ kind: "long", userId: 1 });
    await until(
      () => statusOf(a!, job.id),
      (row) => row.status === "processing",
    );

    const { database, reads } = watched(b!);
    const second = sharedQueue(database);
    second.register("long", async () => {
      throw new Error("ran twice");
    });
    await second.start();
    // Once the second queue has looked around three times (two reads a look), the job is still the first queue's.
    const looked = reads.count;
    await expect.poll(() => reads.count).toBeGreaterThanOrEqual(looked + 6);
    expect(await statusOf(b!, job.id)).toMatchObject({ status: "processing", attempts: 1 });
    gate.resolve();
    expect(await first.waitFor(job.id)).toMatchObject({ status: "done", attempts: 1, error: null, leaseOwner: null });
  });

  it("takes over the job of a process that died once its lease runs out, and runs it to the end", async () => {
    const [a, b] = await sharedDatabase(2);
    // A lease of ten minutes: only the survivor's clock, moved on below, lets it run out (no waiting on real time).
    const dying = createJobQueue({ db: a!.db, shared: true, leaseMs: 600_000 });
    dying.register("report", async () => new Promise(() => undefined)); // never ends: the process dies in it
    await dying.start();
    const job = await dying.enqueue({ kind: "report", userId: 1 });
    await until(
      () => statusOf(b!, job.id),
      (row) => row.status === "processing",
    );
    // The process "dies": its connection pool closes, so it renews nothing any more.
    await a!.close();

    let later = 0;
    const { database, reads } = watched(b!);
    const survivor = sharedQueue(database, { clock: () => Date.now() + later });
    const ran: number[] = [];
    survivor.register("report", async ({ job: running }) => void ran.push(running.id));
    await survivor.start();
    // Its lease still holds: the survivor has looked around three times (two reads a look) and left the job alone.
    const looked = reads.count;
    await expect.poll(() => reads.count).toBeGreaterThanOrEqual(looked + 6);
    expect(await statusOf(b!, job.id)).toMatchObject({ status: "processing", attempts: 1 });
    expect(ran).toEqual([]);
    // Ten minutes on, on the survivor's clock: the dead process's lease has run out, and the survivor takes the job.
    later = 600_000;
    const done = await until(
      () => statusOf(b!, job.id),
      (row) => row.status === "done",
    );
    expect(done).toMatchObject({ attempts: 2, leaseOwner: null });
    expect(ran).toEqual([job.id]);
  });

  it("with notifications, an idle process takes a busy one's job at once, and the process that queued it hears it finished", async () => {
    const [a, b] = await sharedDatabase(2);
    const signals = await Promise.all([openPgSignals(a!.url!), openPgSignals(b!.url!)]);
    cleanups.push(async () => void (await Promise.all(signals.map((signal) => signal.close()))));
    // Leases of ten minutes: the processes' own look-around (every 200 s) cannot be what moves the job.
    const queues = {
      a: sharedQueue(a!, { concurrency: 1, leaseMs: 600_000, signals: signals[0] }),
      b: sharedQueue(b!, { concurrency: 1, leaseMs: 600_000, signals: signals[1] }),
    };
    const hold = deferred();
    cleanups.push(async () => hold.resolve());
    const ranOn = new Map<number, string>();
    for (const [name, queue] of Object.entries(queues)) {
      queue.register<{ hold?: boolean }>("work", async ({ job, payload }) => {
        ranOn.set(job.id, name);
        if (payload.hold) await hold.promise;
      });
    }
    // A is busy first (B not started yet, so it cannot take the held job).
    await queues.a.start();
    const held = await queues.a.enqueue({ kind: "work", userId: 1, payload: { hold: true } });
    await until(
      () => statusOf(a!, held.id),
      (row) => row.status === "processing",
    );
    await queues.b.start();
    const waiting = await queues.a.enqueue({ kind: "work", userId: 1 });
    expect(await queues.a.waitFor(waiting.id)).toMatchObject({ status: "done" });
    expect(ranOn.get(waiting.id)).toBe("b");
    hold.resolve();
    expect(await queues.a.waitFor(held.id)).toMatchObject({ status: "done" });
  });

  it("a process shutting down keeps renewing the leases of the jobs it still runs, so no other process runs them again", async () => {
    const [a, b] = await sharedDatabase(2);
    const gate = deferred();
    cleanups.push(async () => gate.resolve());
    // Renewals every 100 ms; the clock they write by is moved ten minutes on once the process is stopping, so a
    // lease that far out can only come from a renewal made after stop() (however late a loaded machine runs it).
    let ahead = 0;
    const stopping = createJobQueue({ db: a!.db, shared: true, leaseMs: 300, clock: () => Date.now() + ahead });
    stopping.register("long", async () => gate.promise);
    await stopping.start();
    const job = await stopping.enqueue({ kind: "long", userId: 1 });
    await until(
      () => statusOf(a!, job.id),
      (row) => row.status === "processing",
    );
    const stopped = stopping.stop();
    ahead = 600_000;
    const leaseOf = async () =>
      Number((await b!.db.selectFrom("jobs").select("leaseExpiresMs").where("id", "=", job.id).executeTakeFirstOrThrow()).leaseExpiresMs);
    await until(leaseOf, (lease) => lease > Date.now() + 300_000);
    const { database, reads } = watched(b!);
    const other = sharedQueue(database, { leaseMs: 300 });
    other.register("long", async () => {
      throw new Error("ran twice");
    });
    await other.start();
    // Once the other process has looked around three times, the stopping process's renewed lease kept the job its own.
    const looked = reads.count;
    await expect.poll(() => reads.count).toBeGreaterThanOrEqual(looked + 6);
    expect(await statusOf(b!, job.id)).toMatchObject({ status: "processing", attempts: 1 });
    gate.resolve();
    await stopped;
    expect(await statusOf(b!, job.id)).toMatchObject({ status: "done", attempts: 1, leaseOwner: null });
  });
});
