import type { ApprovalDecision, ApprovalRequest } from "@sage/contracts/external-tools";
import { sql, type Kysely } from "kysely";
import type { Signals } from "../../store/postgres/pg-signals.ts";
import type { Database } from "../../store/schema.ts";
import { checkConfirmed, createApprovals, type ApprovalAnswer, type Approvals } from "./approvals.ts";

const CHANNEL = "sage_approvals";
/** How often a process looks up its waiting calls' answers itself, besides the notifications. */
const ANSWER_LOOKUP_MS = 5_000;

/**
 * Approvals for processes sharing one PostgreSQL database (decision 057). A call waits in the process running its
 * turn, as `createApprovals` keeps it; it is also written to the `approvals` table, so any process lists it, and
 * answered there: the first answer marks the row, and a notification tells every process, the waiting one releases
 * the turn. A row goes when its call ends; one whose process died is past its expiry and no longer listed.
 */
export async function createSharedApprovals(options: {
  db: Kysely<Database>;
  signals: Signals;
  timeoutMs: number;
  warn?: (message: string, error?: unknown) => void;
  /** How often this process looks up its waiting calls' answers itself (tests shorten it). */
  lookupMs?: number;
}) {
  const { db, signals } = options;
  const local = createApprovals({ timeoutMs: options.timeoutMs });
  await signals.subscribe(CHANNEL, (payload) => {
    const { approvalId, userId, approved } = JSON.parse(payload) as { approvalId: string; userId: number; approved: boolean };
    local.release(userId, approvalId, approved);
  });
  /** Calls waiting in this process, by id: what it looks up itself should a notification not arrive. */
  const waitingHere = new Map<string, number>();
  // A lost notification (the signals connection dropped) must not leave a turn waiting until it times out.
  const lookup = setInterval(() => {
    if (waitingHere.size === 0) return;
    void db
      .selectFrom("approvals")
      .select(["id", "userId", "answer"])
      .where("id", "in", [...waitingHere.keys()])
      .where("answer", "is not", null)
      .execute()
      .then((rows) => rows.forEach((row) => local.release(row.userId, row.id, row.answer === "approved")))
      .catch((error: unknown) => options.warn?.("could not look up answered approvals", error));
  }, options.lookupMs ?? ANSWER_LOOKUP_MS);
  lookup.unref();
  const forget = (approvalId: string) =>
    db
      .deleteFrom("approvals")
      .where("id", "=", approvalId)
      .execute()
      .catch((error: unknown) => options.warn?.("could not remove a finished approval", error));

  return {
    /** As `createApprovals`' request; the call is also recorded for every process before its card is shown. */
    request(...call: Parameters<Approvals["request"]>): Promise<ApprovalAnswer> {
      const [userId, name, args, signal, announce, card] = call;
      let recorded: Promise<unknown> = Promise.resolve();
      let ended = false;
      let approvalId = "";
      const answer = local.request(
        userId,
        name,
        args,
        signal,
        (request) => {
          approvalId = request.approvalId;
          waitingHere.set(approvalId, userId);
          // Shown once it is recorded, so an answer through any process finds it; not shown if the call ended first.
          recorded = db
            .insertInto("approvals")
            .values({
              id: request.approvalId,
              userId,
              request: JSON.stringify(request),
              expiresAtMs: Date.now() + options.timeoutMs,
              createdAt: new Date().toISOString(),
            })
            .execute()
            .then(
              () => {
                if (!ended) announce(request);
              },
              (error: unknown) => {
                options.warn?.("could not record an approval", error);
                local.release(userId, request.approvalId, false);
              },
            );
        },
        card,
      );
      // The row goes once the call ended and its recording settled (else a late insert would outlive the call).
      return answer.finally(() => {
        ended = true;
        waitingHere.delete(approvalId);
        void recorded.finally(() => forget(approvalId));
      });
    },

    /** The user's calls waiting for an answer, in whichever process they wait. */
    async pending(userId: number): Promise<ApprovalRequest[]> {
      const rows = await db
        .selectFrom("approvals")
        .select("request")
        .where("userId", "=", userId)
        .where("answer", "is", null)
        .where("expiresAtMs", ">", Date.now())
        .orderBy("createdAt")
        .execute();
      return rows.map((row) => JSON.parse(row.request) as ApprovalRequest);
    },

    /**
     * False when no call of this user waits under the id (answered already, by another user's request, or gone); 409
     * for a content-derived card approved without its second confirmation.
     */
    async answer(userId: number, approvalId: string, approved: boolean, confirm?: ApprovalDecision["confirm"]): Promise<boolean> {
      if (approved) {
        const row = await db.selectFrom("approvals").select("request").where("id", "=", approvalId).where("userId", "=", userId).executeTakeFirst();
        if (row) checkConfirmed(JSON.parse(row.request) as ApprovalRequest, confirm);
      }
      // The mark and its notification commit together: an answer recorded is an answer the waiting process hears.
      return db.transaction().execute(async (trx) => {
        const marked = await trx
          .updateTable("approvals")
          .set({ answer: approved ? "approved" : "declined" })
          .where("id", "=", approvalId)
          .where("userId", "=", userId)
          .where("answer", "is", null)
          .where("expiresAtMs", ">", Date.now())
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0) return false;
        await sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify({ approvalId, userId, approved })})`.execute(trx);
        return true;
      });
    },

    closeAll() {
      clearInterval(lookup);
      local.closeAll();
    },
  };
}
