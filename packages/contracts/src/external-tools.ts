import { z } from "zod";
import { approvalRiskSchema, callProvenanceSchema } from "./provenance.ts";

/**
 * External tools (MCP servers the administrator listed in SAGE_MCP_CONFIG). The web API only reads their state
 * and keeps each user's choices; it can never define or start a server.
 */
export const mcpServerStateSchema = z.enum(["connected", "starting", "failed"]);
export type McpServerState = z.infer<typeof mcpServerStateSchema>;

export const externalToolSchema = z.object({
  /** The tool's name on its server. */
  name: z.string(),
  /** The name the model sees: `<server>__<tool>`, cut to the model's function-name rules. */
  modelName: z.string(),
  description: z.string(),
  /** The server marks it read-only (readOnlyHint): it runs without asking. */
  readOnly: z.boolean(),
  enabled: z.boolean(),
  /** Ask before running (true by default unless the tool is read-only). */
  ask: z.boolean(),
  /** The model cannot be given this tool (its input cannot be described to it), so chats leave it out: why, in words. */
  warning: z.string().optional(),
  /** The technical reason behind the warning, for whoever runs the server. */
  warningDetail: z.string().optional(),
});
export type ExternalTool = z.infer<typeof externalToolSchema>;

export const externalServerSchema = z.object({
  name: z.string(),
  transport: z.enum(["stdio", "http"]),
  state: mcpServerStateSchema,
  error: z.string().optional(),
  tools: z.array(externalToolSchema),
});
export type ExternalServer = z.infer<typeof externalServerSchema>;

/** GET /api/tools */
export const externalToolsResponseSchema = z.object({
  servers: z.array(externalServerSchema),
  /** The config file could not be read. */ error: z.string().optional(),
});
export type ExternalToolsResponse = z.infer<typeof externalToolsResponseSchema>;

/** PATCH /api/tools/settings: one user's choice for one tool. */
export const toolSettingRequestSchema = z
  .object({
    server: z.string().min(1).max(200),
    tool: z.string().min(1).max(200),
    enabled: z.boolean().optional(),
    ask: z.boolean().optional(),
  })
  .refine((value) => value.enabled !== undefined || value.ask !== undefined, "enabled or ask is required");
export type ToolSettingRequest = z.infer<typeof toolSettingRequestSchema>;

/**
 * POST /api/approvals/{approvalId}. Approving a card whose `risk` is "content-derived" also needs
 * `confirm: "content-derived"`, the second, deliberate confirmation; without it the answer is 409 and the call still
 * waits. Declining never needs it.
 */
export const approvalDecisionSchema = z.object({
  approved: z.boolean(),
  confirm: z.literal("content-derived").optional(),
});
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/**
 * The turn's `approval-required` event, and GET /api/approvals' items (the user's calls waiting for an answer).
 * `reason` says why SAGE asks, in plain words: "As you asked: to Emma Johnson <emma@example.com>", or for a
 * content-derived value where it came from ("This address appears only in the mail from noreply@shop.example of
 * 14 May; you never wrote it"). `risk` and `provenance` say the same for machines (issue 47, decision 062):
 * "content-derived" when any argument's value came from someone else's text, and each argument's origin.
 * `kind` "memory" is a memory the assistant proposes, kept only on the user's Keep (decision 031).
 */
export const approvalRequiredEventSchema = z.object({
  approvalId: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  risk: approvalRiskSchema,
  provenance: callProvenanceSchema,
  reason: z.string().optional(),
  kind: z.enum(["tool", "memory"]).optional(),
  /** The call in plain words, line by line (scheduleTask: the schedule and its next three runs); the arguments stay one click away. */
  summary: z.array(z.string()).optional(),
  /** The conversation whose turn asks: a scheduled run's card is shown there, since nobody watched the run. */
  conversationId: z.number().int().optional(),
});
export type ApprovalRequest = z.infer<typeof approvalRequiredEventSchema>;
export const pendingApprovalsResponseSchema = z.object({ approvals: z.array(approvalRequiredEventSchema) });

/** What an approval card says beside the call, in the chat and in every channel (issue 47). */
export const APPROVAL_CARD_TEXTS = {
  /** The heading of a card with a content-derived value (the red card). */
  contentDerivedTitle: "Check this first: part of it comes from content you did not write",
  /** The second, deliberate confirmation a content-derived card needs before it is approved. */
  confirmQuestion: "Approve it anyway? Only if you are sure this is what you want: SAGE found it in someone else's text, not in yours.",
  confirmApprove: "Yes, approve it",
  confirmCancel: "Go back",
} as const;

/** What the model is told when a call did not run. */
export const EXTERNAL_TOOL_TEXTS = {
  declined: "The user declined to run this tool.",
  memoryDiscarded: "The user discarded this memory, so it was not saved.",
  approvalTimedOut: "The user did not answer the approval request in time, so the tool was not run.",
  approvalNotFound: "No approval is waiting under this id",
  /** 409: a content-derived card approved without its second confirmation. */
  confirmationRequired:
    'This request carries something SAGE read in content you did not write. To approve it, confirm it deliberately ("confirm": "content-derived").',
  confirmationRequiredCode: "confirmation_required",
  unknownTool: "Unknown tool",
  truncated: (shown: number, total: number) => `\n[Result cut to ${shown} of ${total} characters]`,
  timedOut: (server: string, ms: number) => `The tool server "${server}" did not answer within ${Math.round(ms / 1000)} s.`,
  serverFailed: (server: string, message: string) => `The tool server "${server}" failed: ${message}`,
} as const;

export const approvalParamsSchema = z.object({ approvalId: z.string().min(1).max(100) });
