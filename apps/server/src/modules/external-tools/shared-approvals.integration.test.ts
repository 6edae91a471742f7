import type { ApprovalRequest } from "@sage/contracts/external-tools";
import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { openPostgresDb } from "../../store/postgres/open-postgres-db.ts";
import { openPgSignals } from "../../store/postgres/pg-signals.ts";
import { describeOnPostgres } from "../../test/test-databases.ts";
import type { ApprovalCardFields } from "./approvals.ts";
import { createSharedApprovals } from "./shared-approvals.ts";

describeOnPostgres("approvals shared by the processes on one PostgreSQL database", (databases) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two processes' approvals on one fresh database (each its own pool and signals connection), and user 7. */
  async function twoProcesses(timeoutMs = 60_000, lookupMs?: number) {
    const first = await databases.open();
    cleanups.push(() => first.close());
    await first.db.insertInto("users").values({ id: 7, username: "anna", passwordHash: "x", createdAt: "x" }).execute();
    const processes = [];
    for (let index = 0; index < 2; index++) {
      const database = await openPostgresDb({ url: first.url! });
      const signals = await openPgSignals(first.url!);
      cleanups.push(async () => {
        await signals.close();
        await database.close();
      });
      const approvals = await createSharedApprovals({ db: database.db, signals, timeoutMs, lookupMs });
      cleanups.push(async () => approvals.closeAll());
      processes.push(Object.assign(approvals, { signals, db: database.db }));
    }
    return processes as [(typeof processes)[0], (typeof processes)[0]];
  }

  /** Asks on `process` and resolves once the card is announced (recorded for every process to see). */
  async function ask(process: Awaited<ReturnType<typeof twoProcesses>>[0], signal = new AbortController().signal, card: ApprovalCardFields = {}) {
    let answer!: Promise<string>;
    const request = await new Promise<ApprovalRequest>((announced) => {
      answer = process.request(7, "notes__write_note", { name: "Board" }, signal, announced, { reason: "It writes to your notes.", ...card });
    });
    return { request, answer };
  }

  it("an approval posted to another process releases the turn waiting in this one, once, by its own user only", async () => {
    const [a, b] = await twoProcesses();
    const { request, answer } = await ask(a);
    expect(await b.pending(7)).toEqual([
      { approvalId: request.approvalId, name: "notes__write_note", args: { name: "Board" }, risk: "asked", provenance: {}, reason: "It writes to your notes." },
    ]);
    expect(await b.pending(8)).toEqual([]);
    expect(await b.answer(8, request.approvalId, true)).toBe(false);
    expect(await b.answer(7, request.approvalId, true)).toBe(true);
    expect(await answer).toBe("approved");
    expect(await a.answer(7, request.approvalId, false)).toBe(false);
    expect(await a.pending(7)).toEqual([]);
  });

  it("a content-derived card is approved through another process only with its second confirmation (issue 47)", async () => {
    const [a, b] = await twoProcesses();
    const { request, answer } = await ask(a, undefined, { risk: "content-derived", provenance: { name: { from: "content", source: { title: "memo.txt" } } } });
    await expect(b.answer(7, request.approvalId, true)).rejects.toMatchObject({ status: 409 });
    expect((await b.pending(7)).map((item) => item.risk)).toEqual(["content-derived"]);
    expect(await b.answer(7, request.approvalId, true, "content-derived")).toBe(true);
    expect(await answer).toBe("approved");
  });

  it("a call that timed out or whose turn stopped is no longer listed, and cannot be answered", async () => {
    const [a, b] = await twoProcesses(300);
    const timed = await ask(a);
    expect(await timed.answer).toBe("timed-out");
    expect(await b.answer(7, timed.request.approvalId, true)).toBe(false);
    const stop = new AbortController();
    const stopped = await ask(b, stop.signal);
    expect((await a.pending(7)).map((item) => item.approvalId)).toEqual([stopped.request.approvalId]);
    stop.abort();
    expect(await stopped.answer).toBe("declined");
    await expect.poll(() => a.pending(7)).toEqual([]);
  });

  it("a stray notification is ignored, and an answer whose notification was lost still releases the turn", async () => {
    const [a, b] = await twoProcesses(60_000, 100);
    await sql`NOTIFY sage_approvals, 'not json'`.execute(b.db);
    const { request, answer } = await ask(a);
    // A's notifications stop (its connection for them is gone); it looks the answer up itself.
    await a.signals.close();
    expect(await b.answer(7, request.approvalId, false)).toBe(true);
    expect(await answer).toBe("declined");
  });
});
