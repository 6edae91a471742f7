import { randomUUID } from "node:crypto";
import type { ApprovalRequest } from "@sage/contracts/external-tools";

export type ApprovalAnswer = "approved" | "declined" | "timed-out";

interface Waiting extends ApprovalRequest {
  userId: number;
  answer(value: ApprovalAnswer): void;
}

const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;

/** Tool calls waiting for their user's answer; each is answered once, by its user, or times out. */
export function createApprovals(options: { timeoutMs: number }) {
  const waiting = new Map<string, Waiting>();

  return {
    /**
     * Registers a call and resolves with the user's answer; `announce` tells the turn's stream about it. `card` adds
     * why SAGE asks and whether it is a memory to keep.
     */
    request(
      userId: number,
      name: string,
      args: Record<string, unknown>,
      signal: AbortSignal,
      announce: (request: ApprovalRequest) => void,
      card: Pick<ApprovalRequest, "reason" | "kind" | "summary" | "conversationId"> = {},
    ): Promise<ApprovalAnswer> {
      const approvalId = randomUUID();
      return new Promise<ApprovalAnswer>((resolve) => {
        const finish = (value: ApprovalAnswer) => {
          if (!waiting.delete(approvalId)) return;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        };
        const onAbort = () => finish("declined");
        const timer = setTimeout(() => finish("timed-out"), options.timeoutMs);
        timer.unref();
        const request: ApprovalRequest = { approvalId, name, args, ...withoutUndefined(card) };
        waiting.set(approvalId, { ...request, userId, answer: finish });
        signal.addEventListener("abort", onAbort, { once: true });
        announce(request);
      });
    },
    /** The user's calls waiting for an answer (a reloaded page shows them again). */
    pending: (userId: number): ApprovalRequest[] =>
      [...waiting.values()].filter((item) => item.userId === userId).map(({ userId: _owner, answer: _answer, ...request }) => request),
    /** False when no call of this user waits under the id. */
    answer(userId: number, approvalId: string, approved: boolean): boolean {
      const item = waiting.get(approvalId);
      if (!item || item.userId !== userId) return false;
      item.answer(approved ? "approved" : "declined");
      return true;
    },
    closeAll() {
      for (const item of [...waiting.values()]) item.answer("declined");
    },
  };
}

export type Approvals = ReturnType<typeof createApprovals>;

/** Approvals as the routes and turns use them: this process's alone, or shared by every process on a database (shared-approvals.ts). */
export interface ApprovalsPort {
  request: Approvals["request"];
  pending(userId: number): ApprovalRequest[] | Promise<ApprovalRequest[]>;
  answer(userId: number, approvalId: string, approved: boolean): boolean | Promise<boolean>;
  closeAll(): void;
}
