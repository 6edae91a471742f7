import { useQuery } from "@tanstack/react-query";
import { pendingApprovalsResponseSchema, type ApprovalRequest } from "@sage/contracts/external-tools";
import { getJson } from "@/lib/api-client";

export const pendingApprovalsQueryKey = ["approvals", "pending"] as const;

/**
 * Cards waiting in this conversation that no open turn shows: a scheduled run asked while nobody watched (decision
 * 036). Asked again every few seconds while the page is open, as a run may stop at any time.
 */
export function useWaitingApprovals(conversationId: number) {
  return useQuery({
    queryKey: pendingApprovalsQueryKey,
    queryFn: async () => (await getJson("/api/approvals", pendingApprovalsResponseSchema))?.approvals ?? [],
    refetchInterval: 5000,
    select: (approvals: ApprovalRequest[]) => approvals.filter((approval) => approval.conversationId === conversationId),
  });
}
