import type { Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../store/schema.ts";
import type { OpenTestDatabase } from "../test/test-databases.ts";
import { INTERRUPTED_REASON, createJobQueue, interruptedTooOften } from "./job-queue.ts";

/** A job marked running by a server that stopped (no lease: written before leases, or by SQLite's only process). */
async function insertRunning(db: Kysely<Database>, kind: string, attempts: number): Promise<number> {
  const row = await db
    .insertInto("jobs")
    .values({ userId: 1, kind, status: "processing", attempts, createdAt: "x", updatedAt: "x" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** The job queue's behaviour, the same on each engine: job-queue.test.ts (SQLite), job-queue.integration.test.ts. */
export function jobQueueCases(engine: string, open: OpenTestDatabase) {
  describe(`job queue (${engine})`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setup() {
      const store = await open();
      cleanups.push(() => store.close());
      await store.db.insertInto("users").values({ id: 1, username: "u", passwordHash: "x", createdAt: "2025-01-01" }).execute();
      return store;
    }

    it("runs a job to done with its payload and records progress", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      const seen: unknown[] = [];
      queue.register<{ n: number }>("double", async ({ payload, progress }) => {
        seen.push(payload.n * 2);
        await progress(1, 1);
      });
      await queue.start();
      const job = await queue.enqueue({ kind: "double", userId: 1, payload: { n: 21 } });
      const finished = await queue.waitFor(job.id);
      expect(seen).toEqual([42]);
      expect(finished).toMatchObject({ status: "done", error: null, processed: 1, total: 1, attempts: 1 });
    });

    it("marks a throwing job failed with the reason and calls onFailed", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      const failures: string[] = [];
      queue.register(
        "broken",
        async () => {
          throw new Error("the document is encrypted");
        },
        { onFailed: async (_job, reason) => void failures.push(reason) },
      );
      await queue.start();
      const job = await queue.enqueue({ kind: "broken", userId: 1 });
      expect(await queue.waitFor(job.id)).toMatchObject({ status: "failed", error: "the document is encrypted" });
      expect(failures).toEqual(["the document is encrypted"]);
    });

    it("answers a waiter only once the failed job's onFailed hook has run, though its row already says failed", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      const entered = deferred();
      const release = deferred();
      let hookDone = false;
      queue.register(
        "broken",
        async () => {
          throw new Error("the document is encrypted");
        },
        {
          onFailed: async () => {
            entered.resolve();
            await release.promise;
            hookDone = true;
          },
        },
      );
      await queue.start();
      const job = await queue.enqueue({ kind: "broken", userId: 1 });
      await entered.promise;
      // The row says failed now; a caller who waits must still see what the hook does (an item's reason, say).
      expect((await store.db.selectFrom("jobs").select("status").where("id", "=", job.id).executeTakeFirstOrThrow()).status).toBe("failed");
      const answered = queue.waitFor(job.id).then((finished) => ({ status: finished.status, hookDone }));
      // Reads after the waiter's own: a waiter answered from the row alone has its answer by their end (the hook
      // is still held, so it would say hookDone false). A correct one is answered only after the release.
      for (let read = 0; read < 5; read++) await store.db.selectFrom("jobs").select("status").where("id", "=", job.id).execute();
      release.resolve();
      expect(await answered).toEqual({ status: "failed", hookDone: true });
    });

    it("never runs more jobs at once than its concurrency bound, and runs them all", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db, concurrency: 2 });
      const gates = Array.from({ length: 5 }, deferred);
      let active = 0;
      let maxActive = 0;
      const started: number[] = [];
      queue.register<{ index: number }>("slow", async ({ payload }) => {
        active++;
        maxActive = Math.max(maxActive, active);
        started.push(payload.index);
        await gates[payload.index]!.promise;
        active--;
      });
      await queue.start();
      const jobs = [];
      for (let index = 0; index < 5; index++) jobs.push(await queue.enqueue({ kind: "slow", userId: 1, payload: { index } }));
      while (started.length < 2) await new Promise((resolve) => setImmediate(resolve));
      expect(started).toEqual([0, 1]);
      gates.forEach((gate) => gate.resolve());
      const results = await Promise.all(jobs.map((job) => queue.waitFor(job.id)));
      expect(results.map((job) => job.status)).toEqual(["done", "done", "done", "done", "done"]);
      expect(maxActive).toBe(2);
    });

    it("runs jobs that wait on another server beside the bounded ones: a sync never holds up the reading it queues", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db, concurrency: 2 });
      cleanups.push(() => queue.stop());
      const syncs = [deferred(), deferred(), deferred()];
      const reads = [deferred(), deferred(), deferred()];
      const started: string[] = [];
      queue.register<{ index: number }>(
        "sync",
        async ({ payload }) => {
          started.push(`sync ${payload.index}`);
          await syncs[payload.index]!.promise;
        },
        { waitsOnNetwork: true },
      );
      queue.register<{ index: number }>("read", async ({ payload }) => {
        started.push(`read ${payload.index}`);
        await reads[payload.index]!.promise;
      });
      await queue.start();
      const jobs = [];
      for (let index = 0; index < 3; index++) jobs.push(await queue.enqueue({ kind: "sync", userId: 1, payload: { index } }));
      for (let index = 0; index < 3; index++) jobs.push(await queue.enqueue({ kind: "read", userId: 1, payload: { index } }));
      while (started.length < 4) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Two syncs (their own bound) and two reads (the queue's bound) at once; the third of each waits its turn.
      expect(started.sort()).toEqual(["read 0", "read 1", "sync 0", "sync 1"]);
      reads[0]!.resolve();
      while (started.length < 5) await new Promise((resolve) => setImmediate(resolve));
      expect(started).toContain("read 2");
      syncs[0]!.resolve();
      while (started.length < 6) await new Promise((resolve) => setImmediate(resolve));
      expect(started).toContain("sync 2");
      [...syncs, ...reads].forEach((gate) => gate.resolve());
      const results = await Promise.all(jobs.map((job) => queue.waitFor(job.id)));
      expect(results.every((job) => job.status === "done")).toBe(true);
    });

    it("runs jobs of a one-at-a-time kind in turn, leaving the other slot to other kinds", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db, concurrency: 2 });
      cleanups.push(() => queue.stop());
      const batches = [deferred(), deferred(), deferred()];
      const upload = deferred();
      const started: string[] = [];
      queue.register<{ index: number }>(
        "batch",
        async ({ payload }) => {
          started.push(`batch ${payload.index}`);
          await batches[payload.index]!.promise;
        },
        { oneAtATime: true },
      );
      queue.register("upload", async () => {
        started.push("upload");
        await upload.promise;
      });
      await queue.start();
      const jobs = [];
      for (let index = 0; index < 3; index++) jobs.push(await queue.enqueue({ kind: "batch", userId: 1, payload: { index } }));
      jobs.push(await queue.enqueue({ kind: "upload", userId: 1 }));
      while (started.length < 2) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The upload queued behind three batches runs beside the first; the second batch waits for the first.
      expect(started).toEqual(["batch 0", "upload"]);
      upload.resolve();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(started).toEqual(["batch 0", "upload"]);
      batches[0]!.resolve();
      while (started.length < 3) await new Promise((resolve) => setImmediate(resolve));
      expect(started.at(-1)).toBe("batch 1");
      batches.forEach((gate) => gate.resolve());
      const results = await Promise.all(jobs.map((job) => queue.waitFor(job.id)));
      expect(results.every((job) => job.status === "done")).toBe(true);
      expect(started).toEqual(["batch 0", "upload", "batch 1", "batch 2"]);
    });

    it("does not run jobs of a kind nobody registered, and runs them once a handler appears", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      await queue.start();
      const job = await queue.enqueue({ kind: "later", userId: 1 });
      await queue.idle();
      expect((await queue.get(job.id))?.status).toBe("queued");
      queue.register("later", async () => {});
      expect((await queue.waitFor(job.id)).status).toBe("done");
    });

    it("at start-up resumes interrupted jobs of resumable kinds and fails the others with the reason", async () => {
      const store = await setup();
      const resumable = await insertRunning(store.db, "resumable", 1);
      const fragile = await insertRunning(store.db, "fragile", 1);
      const exhausted = await insertRunning(store.db, "resumable", 3);

      const queue = createJobQueue({ db: store.db });
      const ran: number[] = [];
      const failed: number[] = [];
      queue.register("resumable", async ({ job }) => void ran.push(job.id));
      queue.register("fragile", async ({ job }) => void ran.push(job.id), { onInterrupted: "fail", onFailed: async (job) => void failed.push(job.id) });
      await queue.start();

      expect(await queue.waitFor(resumable)).toMatchObject({ status: "done", attempts: 2 });
      expect(await queue.waitFor(fragile)).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
      expect(await queue.waitFor(exhausted)).toMatchObject({ status: "failed", error: interruptedTooOften(3) });
      expect(ran).toEqual([resumable]);
      expect(failed).toEqual([fragile]);
    });

    it("resumes a kind only as often as it allows: a job its server died on twice is failed, not run a third time", async () => {
      const store = await setup();
      const firstCut = await insertRunning(store.db, "once", 1);
      const cutAgain = await insertRunning(store.db, "once", 2);
      const queue = createJobQueue({ db: store.db });
      const ran: number[] = [];
      const failed: Array<[number, string]> = [];
      queue.register("once", async ({ job }) => void ran.push(job.id), { maxResumes: 1, onFailed: async (job, reason) => void failed.push([job.id, reason]) });
      await queue.start();
      expect(await queue.waitFor(firstCut)).toMatchObject({ status: "done", attempts: 2 });
      expect(await queue.waitFor(cutAgain)).toMatchObject({ status: "failed", error: "Interrupted by a server restart 2 times, so it was not resumed again" });
      expect(ran).toEqual([firstCut]);
      expect(failed).toEqual([[cutAgain, interruptedTooOften(2)]]);
    });

    it("runs a job again when it found the store busy (SQLite's database is locked), and fails it only past three runs", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      let runs = 0;
      const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
      queue.register("flaky", async () => {
        runs += 1;
        if (runs === 1) throw busy();
      });
      queue.register("stuck", async () => {
        throw busy();
      });
      await queue.start();
      const flaky = await queue.enqueue({ kind: "flaky", userId: 1 });
      expect(await queue.waitFor(flaky.id)).toMatchObject({ status: "done", attempts: 2, error: null });
      const stuck = await queue.enqueue({ kind: "stuck", userId: 1 });
      expect(await queue.waitFor(stuck.id)).toMatchObject({ status: "failed", attempts: 3, error: "database is locked" });
    });

    it("queues work named by a unique key once, whichever queue asks first", async () => {
      const store = await setup();
      const [first, second] = [createJobQueue({ db: store.db }), createJobQueue({ db: store.db })];
      cleanups.push(
        () => first.stop(),
        () => second.stop(),
      );
      const ran: string[] = [];
      for (const queue of [first, second]) queue.register<{ by: string }>("once", async ({ payload }) => void ran.push(payload.by));
      await Promise.all([first.start(), second.start()]);
      const [a, b] = await Promise.all([
        first.enqueueOnce({ kind: "once", userId: 1, payload: { by: "first" }, uniqueKey: "run:7@07:00" }),
        second.enqueueOnce({ kind: "once", userId: 1, payload: { by: "second" }, uniqueKey: "run:7@07:00" }),
      ]);
      const queued = [a, b].filter((job) => job !== undefined);
      expect(queued).toHaveLength(1);
      await (a ? first : second).waitFor(queued[0]!.id);
      // Done, the key still names it: asking again queues nothing; another key is other work.
      expect(await first.enqueueOnce({ kind: "once", userId: 1, payload: { by: "again" }, uniqueKey: "run:7@07:00" })).toBeUndefined();
      const next = await first.enqueueOnce({ kind: "once", userId: 1, payload: { by: "next day" }, uniqueKey: "run:7@next" });
      await first.waitFor(next!.id);
      expect(ran).toEqual([a ? "first" : "second", "next day"]);
    });

    it("runs a kind with slots of its own beside the bounded jobs, never more at once than it has", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db, concurrency: 1 });
      cleanups.push(() => queue.stop());
      const gate = deferred();
      let turns = 0;
      let mostTurns = 0;
      const readStarted = deferred();
      queue.register(
        "turn",
        async () => {
          mostTurns = Math.max(mostTurns, ++turns);
          await gate.promise;
          turns--;
        },
        { slots: 3 },
      );
      queue.register("read", async () => readStarted.resolve());
      await queue.start();
      const jobs = [];
      for (let index = 0; index < 5; index++) jobs.push(await queue.enqueue({ kind: "turn", userId: 1 }));
      const read = await queue.enqueue({ kind: "read", userId: 1 });
      // The read runs in the queue's one slot while the turns hold all of theirs.
      await readStarted.promise;
      expect(await queue.waitFor(read.id)).toMatchObject({ status: "done" });
      expect(turns).toBe(3);
      gate.resolve();
      const results = await Promise.all(jobs.map((job) => queue.waitFor(job.id)));
      expect(results.every((job) => job.status === "done")).toBe(true);
      expect(mostTurns).toBe(3);
    });

    it("tells running jobs that the queue stops, and waits for them to end", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      const started = deferred();
      let cut = false;
      queue.register("long", async ({ signal }) => {
        started.resolve();
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        cut = true;
      });
      await queue.start();
      const job = await queue.enqueue({ kind: "long", userId: 1 });
      await started.promise;
      await queue.stop();
      expect(cut).toBe(true);
      expect((await queue.get(job.id))?.status).toBe("done");
    });

    it("refuses a second handler for the same kind", async () => {
      const store = await setup();
      const queue = createJobQueue({ db: store.db });
      queue.register("once", async () => {});
      expect(() => queue.register("once", async () => {})).toThrow(/already registered/);
    });
  });
}
