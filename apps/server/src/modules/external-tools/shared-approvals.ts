import type { ApprovalRequest } from "@sage/contracts/external-tools";
import type { Kysely } from "kysely";
import type { Signals } from "../../store/postgres/pg-signals.ts";
import type { Database } from "../../store/schema.ts";
import { createApprovals, type ApprovalAnswer, type Approvals } from "./approvals.ts";

const CHANNEL = "sage_approvals";

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
}) {
  const { db, signals } = options;
  const local = createApprovals({ timeoutMs: options.timeoutMs });
  await signals.subscribe(CHANNEL, (payload) => {
    const { approvalId, userId, approved } = JSON.parse(payload) as { approvalId: string; userId: number; approved: boolean };
    local.answer(userId, approvalId, approved);
  });
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
      let approvalId = "";
      const answer = local.request(
        userId,
        name,
        args,
        signal,
        (request) => {
          approvalId = request.approvalId;
          // Shown once it is recorded, so an answer through any process finds it.
          void db
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
              () => announce(request),
              (error: unknown) => {
                options.warn?.("could not record an approval", error);
                local.answer(userId, request.approvalId, false);
              },
            );
        },
        card,
      );
      return answer.finally(() => void forget(approvalId));
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

    /** False when no call of this user waits under the id (answered already, by another user's request, or gone). */
    async answer(userId: number, approvalId: string, approved: boolean): Promise<boolean> {
      const marked = await db
        .updateTable("approvals")
        .set({ answer: approved ? "approved" : "declined" })
        .where("id", "=", approvalId)
        .where("userId", "=", userId)
        .where("answer", "is", null)
        .where("expiresAtMs", ">", Date.now())
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      await signals.publish(CHANNEL, JSON.stringify({ approvalId, userId, approved }));
      return true;
    },

    closeAll: local.closeAll,
  };
}
