import { useQuery, type QueryClient } from "@tanstack/react-query";
import { pendingApprovalsResponseSchema, type ApprovalRequest } from "@sage/contracts/external-tools";
import { getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const pendingApprovalsQueryKey = ["approvals", "pending"] as const;

/**
 * Cards waiting in this conversation that no open turn shows: a scheduled run asked while nobody watched (decision
 * 036). Asked again every few seconds while the page is open, as a run may stop at any time.
 */
export function useWaitingApprovals(conversationId: number) {
  return useQuery({
    queryKey: pendingApprovalsQueryKey,
    queryFn: async () => (await getJson("/api/approvals", pendingApprovalsResponseSchema))?.approvals ?? [],
    refetchInterval: pollEvery(5000),
    select: (approvals: ApprovalRequest[]) => approvals.filter((approval) => approval.conversationId === conversationId),
  });
}

/**
 * Takes an answered card off the waiting list at once (issue 52 item 18): the list was read while the card waited, so
 * until the next read it would show the card again, a second copy beside or after the one just answered. A read
 * still on its way is cancelled first, since it may have left the server before the answer.
 */
export async function forgetAnsweredApproval(queryClient: QueryClient, approvalId: string) {
  await queryClient.cancelQueries({ queryKey: pendingApprovalsQueryKey });
  queryClient.setQueryData<ApprovalRequest[]>(pendingApprovalsQueryKey, (list) => list?.filter((approval) => approval.approvalId !== approvalId));
}
