import type { ApprovalDecision, ApprovalRequest } from "@sage/contracts/external-tools";

type Answer = "approved" | "declined" | "timed-out";

/** The approvals the turns ask through (the external tools module's): asking, listing and answering. */
export interface ApprovalsLike {
  request(
    userId: number,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    announce: (request: ApprovalRequest) => void,
    card?: Partial<Pick<ApprovalRequest, "risk" | "provenance" | "reason" | "kind" | "summary" | "conversationId">>,
  ): Promise<Answer>;
  pending(userId: number): ApprovalRequest[] | Promise<ApprovalRequest[]>;
  /** As POST /api/approvals/{id}: false for no such call; a 409 for a content-derived card approved without `confirm`. */
  answer(userId: number, approvalId: string, approved: boolean, confirm?: ApprovalDecision["confirm"]): boolean | Promise<boolean>;
}

/** Hears when an approval a turn asked for ended, however it was answered (here, in the web app, by its timer). */
export type ApprovalSettledListener = (event: { userId: number; approvalId: string; answer: Answer }) => void;

/**
 * The one approval path, watched: turns ask through `port` exactly as before, and listeners hear each approval's end,
 * so a card a channel showed loses its buttons once the web app (or the channel) answered it (decision 076).
 */
export function watchApprovals<A extends ApprovalsLike>(approvals: A) {
  const listeners: ApprovalSettledListener[] = [];
  const request: ApprovalsLike["request"] = (userId, name, args, signal, announce, card) => {
    let approvalId: string | undefined;
    const answer = approvals.request(
      userId,
      name,
      args,
      signal,
      (request) => {
        approvalId = request.approvalId;
        announce(request);
      },
      card,
    );
    void answer.then(
      (value) => {
        if (approvalId) for (const listener of listeners) listener({ userId, approvalId, answer: value });
      },
      () => undefined,
    );
    return answer;
  };
  const port: A = { ...approvals, request };
  return {
    /** What the assistant's turns ask through. */
    port,
    onSettled(listener: ApprovalSettledListener) {
      listeners.push(listener);
    },
  };
}

export type WatchedApprovals<A extends ApprovalsLike = ApprovalsLike> = ReturnType<typeof watchApprovals<A>>;
