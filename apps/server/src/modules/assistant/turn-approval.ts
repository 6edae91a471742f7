import { EXTERNAL_TOOL_TEXTS, type ApprovalRequest } from "@sage/contracts/external-tools";
import type { AssistantTool } from "./tools/assistant-tool.ts";
import type { UntrustedContent } from "./untrusted-content.ts";

export type ApprovalAnswer = "approved" | "declined" | "timed-out";
/** What a card says besides the call: why SAGE asks, and whether it is a memory to keep. */
export type ApprovalCard = Pick<ApprovalRequest, "reason" | "kind">;
/** What the card shows: the card, and the call in plain words when the tool can say it. */
export type ApprovalShown = ApprovalCard & Pick<ApprovalRequest, "summary" | "conversationId" | "hints">;

/** Where a call waits for its user's answer (the external tools module's approvals: POST /api/approvals/{id}). */
export interface ApprovalPort {
  request(
    userId: number,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    announce: (request: ApprovalRequest) => void,
    card?: ApprovalShown,
  ): Promise<ApprovalAnswer>;
}

/** Why a scheduled run asks before a tool that reaches outside SAGE (decision 036). */
export const UNATTENDED_REASON = "SAGE was running a scheduled task on its own; nothing leaves SAGE without your approval.";

/**
 * The card a call needs before it runs, or null when it runs as before (decision 031). One card per call: a tool
 * the user asks to approve anyway gets the untrusted-content reason on its one card.
 *   - a memory proposed after untrusted content: Keep / Discard;
 *   - an external tool after untrusted content, read-only or not: its arguments leave SAGE;
 *   - web search after untrusted content, when its query has words the user never typed;
 *   - a draft after untrusted content (the history's included), when it carries words the user never typed;
 *   - an external tool with "Ask before running" on, always;
 *   - in a scheduled run (unattended), any tool that reaches outside SAGE (sendEmail, every external tool).
 */
export function approvalFor(
  tool: AssistantTool,
  args: Record<string, unknown>,
  untrusted: UntrustedContent,
  options: { unattended?: boolean } = {},
): ApprovalCard | null {
  if (tool.proposesMemory) {
    const reason = untrusted.reason();
    return reason ? { kind: "memory", reason } : null;
  }
  const reach = tool.reach ?? "sage";
  const reason = reach === "outside" ? untrusted.reason() : reach === "query" || reach === "draft" ? untrusted.approvalReason(args) : null;
  if (reason) return { reason };
  if (options.unattended && reach === "outside") return { reason: UNATTENDED_REASON };
  return tool.askFirst ? {} : null;
}

/** What the model is given back for a call the user did not approve. */
export function notApproved(
  answer: Exclude<ApprovalAnswer, "approved">,
  card: ApprovalCard,
  texts?: AssistantTool["notApprovedTexts"],
): Record<string, unknown> {
  if (answer === "timed-out") return { success: false, declined: true, message: texts?.timedOut ?? EXTERNAL_TOOL_TEXTS.approvalTimedOut };
  if (card.kind === "memory") return { success: false, discarded: true, message: EXTERNAL_TOOL_TEXTS.memoryDiscarded };
  return { success: false, declined: true, message: texts?.declined ?? EXTERNAL_TOOL_TEXTS.declined };
}
