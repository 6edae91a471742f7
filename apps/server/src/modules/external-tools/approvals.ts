import { randomUUID } from "node:crypto";
import { EXTERNAL_TOOL_TEXTS, type ApprovalDecision, type ApprovalRequest } from "@sage/contracts/external-tools";
import { conflict } from "../../http/app-error.ts";

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
     * why SAGE asks, where the arguments came from (a card without them is one the user asked for, "asked"), and
     * whether it is a memory to keep.
     */
    request(
      userId: number,
      name: string,
      args: Record<string, unknown>,
      signal: AbortSignal,
      announce: (request: ApprovalRequest) => void,
      card: ApprovalCardFields = {},
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
        const request: ApprovalRequest = { approvalId, name, args, risk: "asked", provenance: {}, ...withoutUndefined(card) };
        waiting.set(approvalId, { ...request, userId, answer: finish });
        signal.addEventListener("abort", onAbort, { once: true });
        announce(request);
      });
    },
    /** The user's calls waiting for an answer (a reloaded page shows them again). */
    pending: (userId: number): ApprovalRequest[] =>
      [...waiting.values()].filter((item) => item.userId === userId).map(({ userId: _owner, answer: _answer, ...request }) => request),
    /**
     * False when no call of this user waits under the id. Approving a content-derived card without its second
     * confirmation throws 409 and leaves the call waiting.
     */
    answer(userId: number, approvalId: string, approved: boolean, confirm?: ApprovalDecision["confirm"]): boolean {
      const item = waiting.get(approvalId);
      if (!item || item.userId !== userId) return false;
      if (approved) checkConfirmed(item, confirm);
      item.answer(approved ? "approved" : "declined");
      return true;
    },
    /** Hands a waiting call an answer already checked where it was posted (another process, decision 057). */
    release(userId: number, approvalId: string, approved: boolean): void {
      const item = waiting.get(approvalId);
      if (item && item.userId === userId) item.answer(approved ? "approved" : "declined");
    },
    closeAll() {
      for (const item of [...waiting.values()]) item.answer("declined");
    },
  };
}

export type Approvals = ReturnType<typeof createApprovals>;

/** What a card says besides the call itself. */
export type ApprovalCardFields = Partial<Pick<ApprovalRequest, "risk" | "provenance" | "reason" | "kind" | "summary" | "conversationId" | "hints">>;

/** A content-derived card is approved only with `confirm: "content-derived"` (issue 47): else 409, nothing answered. */
export function checkConfirmed(request: Pick<ApprovalRequest, "risk">, confirm: ApprovalDecision["confirm"]) {
  if (request.risk === "content-derived" && confirm !== "content-derived") {
    throw conflict(EXTERNAL_TOOL_TEXTS.confirmationRequired, EXTERNAL_TOOL_TEXTS.confirmationRequiredCode);
  }
}

/** Approvals as the routes and turns use them: this process's alone, or shared by every process on a database (shared-approvals.ts). */
export interface ApprovalsPort {
  request: Approvals["request"];
  pending(userId: number): ApprovalRequest[] | Promise<ApprovalRequest[]>;
  /** As `Approvals.answer`: false for no such call; 409 for a content-derived card approved without `confirm`. */
  answer(userId: number, approvalId: string, approved: boolean, confirm?: ApprovalDecision["confirm"]): boolean | Promise<boolean>;
  closeAll(): void;
}
