import { approvalDecisionSchema, type ApprovalDecision } from "@sage/contracts/external-tools";
import { apiRequest } from "@/lib/api-client";

/** POST /api/approvals/{approvalId}: the user's answer to a tool call waiting in their turn. */
export const answerApproval = (approvalId: string, decision: ApprovalDecision) =>
  apiRequest(`/api/approvals/${encodeURIComponent(approvalId)}`, { method: "POST", body: approvalDecisionSchema.parse(decision) });
