import { z } from "zod";
import { approvalRiskSchema, callProvenanceSchema } from "./provenance.ts";

/**
 * External tools (MCP servers): the programs and servers the administrator listed in SAGE_MCP_CONFIG, and the remote
 * servers each user adds by URL (decision 080). The web API can never define or start a program.
 */
export const mcpServerStateSchema = z.enum(["connected", "starting", "failed", "sign-in-needed"]);
export type McpServerState = z.infer<typeof mcpServerStateSchema>;

/** What a server says a tool does (MCP tool annotations): hints, trusted only on a server the user marked trusted. */
export const toolAnnotationsSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof toolAnnotationsSchema>;

/** The annotations in plain words, for the tool's row and its approval card. */
export function annotationsInWords(annotations: ToolAnnotations): string[] {
  const words: string[] = [];
  if (annotations.readOnlyHint) words.push("Only reads: changes nothing.");
  else if (annotations.destructiveHint === true) words.push("Can delete or overwrite things, which may not be undone.");
  else if (annotations.destructiveHint === false) words.push("Adds things; deletes or overwrites nothing.");
  if (annotations.idempotentHint && !annotations.readOnlyHint) words.push("Running it twice does no more than once.");
  if (annotations.openWorldHint === true) words.push("Reaches beyond this server (the web, other people).");
  return words;
}

export const externalToolSchema = z.object({
  /** The tool's name on its server. */
  name: z.string(),
  /** Its server's name, and id (`GET /api/tools/servers`' id, or `config:<name>` for the administrator's). */
  server: z.string(),
  serverId: z.string(),
  title: z.string().optional(),
  /** The name the model sees: `<server>__<tool>`, cut to the model's function-name rules. */
  modelName: z.string(),
  description: z.string(),
  /** It runs without a card when nothing untrusted came before: read-only by a trusted server's word. */
  readOnly: z.boolean(),
  /** What the server says it does (hints). */
  annotations: toolAnnotationsSchema,
  /** The server says it can delete or overwrite: it always asks, whatever "Ask before running" says. */
  alwaysAsks: z.boolean(),
  /** Its results come with structured data (outputSchema), checked against the schema and shown as a table. */
  structuredOutput: z.boolean(),
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
  id: z.string(),
  name: z.string(),
  /** "config": the administrator's file, for everyone; "user": a remote server this user added. */
  source: z.enum(["config", "user"]),
  transport: z.enum(["stdio", "http"]),
  /** A remote server's address. */
  url: z.string().optional(),
  state: mcpServerStateSchema,
  error: z.string().optional(),
  /** Where the user signs in (sign-in-needed). */
  signInUrl: z.string().optional(),
  /** The user lets this server's hints (read-only) spare them a card. */
  trusted: z.boolean(),
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

/** A remote server a user added: POST /api/tools/servers, GET /api/tools/servers (never its token). */
export const remoteServerStatusSchema = z.enum(["connected", "sign-in-needed", "error"]);
export const remoteServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  status: remoteServerStatusSchema,
  /** sign-in-needed: open it (a popup) to sign in at the server's authorization server. */
  signInUrl: z.string().optional(),
  error: z.string().optional(),
  trusted: z.boolean(),
});
export type RemoteServer = z.infer<typeof remoteServerSchema>;
export const remoteServersResponseSchema = z.object({ servers: z.array(remoteServerSchema) });

/** A server's name: what the tools' model names start with (`<name>__<tool>`). */
export const SERVER_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
export const addRemoteServerRequestSchema = z.object({
  name: z.string().trim().regex(SERVER_NAME_PATTERN, "a letter, then up to 39 letters, digits, - or _"),
  url: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), "an http:// or https:// address"),
});
export type AddRemoteServerRequest = z.infer<typeof addRemoteServerRequestSchema>;
export const serverParamsSchema = z.object({ serverId: z.string().min(1).max(200) });
/** PATCH /api/tools/servers/{id}: whether the user trusts the server's hints. */
export const serverSettingRequestSchema = z.object({ trusted: z.boolean() });
export const serverSettingResponseSchema = z.object({ id: z.string(), trusted: z.boolean() });

/** What the connected servers offer besides tools: GET /api/tools/resources. */
export const toolResourceSchema = z.object({
  serverId: z.string(),
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** When the server last said it changed (a resource SAGE read is subscribed to, where the server allows). */
  updatedAt: z.string().optional(),
});
export type ToolResource = z.infer<typeof toolResourceSchema>;
export const toolResourceTemplateSchema = toolResourceSchema.omit({ uri: true, updatedAt: true }).extend({ uriTemplate: z.string() });
export const toolResourcesResponseSchema = z.object({ resources: z.array(toolResourceSchema), templates: z.array(toolResourceTemplateSchema) });
export type ToolResourcesResponse = z.infer<typeof toolResourcesResponseSchema>;

/** POST /api/tools/resources/read */
export const readResourceRequestSchema = z.object({ serverId: z.string().min(1).max(200), uri: z.string().min(1).max(4000) });
export type ResourceRef = z.infer<typeof readResourceRequestSchema>;
export const resourceContentSchema = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  /** Text content; binary content is described by its size only. */
  text: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});
export const readResourceResponseSchema = z.object({ serverId: z.string(), uri: z.string(), contents: z.array(resourceContentSchema) });
export type ReadResourceResponse = z.infer<typeof readResourceResponseSchema>;

/** GET /api/tools/prompts; POST /api/tools/prompts/get fills the composer with one. */
export const toolPromptSchema = z.object({
  serverId: z.string(),
  server: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() })),
});
export type ToolPrompt = z.infer<typeof toolPromptSchema>;
export const toolPromptsResponseSchema = z.object({ prompts: z.array(toolPromptSchema) });
export const getPromptRequestSchema = z.object({
  serverId: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.string().max(10_000)).default({}),
});
export const getPromptResponseSchema = z.object({ text: z.string() });

/** What an external tool gave back besides its text, for the chat: structured data (a table) and links to resources. */
export const resourceLinkSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export const toolOutputSchema = z.object({
  serverId: z.string(),
  structured: z.record(z.string(), z.unknown()).optional(),
  links: z.array(resourceLinkSchema).optional(),
});
export type ToolOutput = z.infer<typeof toolOutputSchema>;

/** The turn's `tool-progress` event: a running tool's server reports how far it got. */
export const toolProgressSchema = z.object({
  id: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export type ToolProgress = z.infer<typeof toolProgressSchema>;

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
export const approvalAnsweredSchema = z.object({ approvalId: z.string(), approved: z.boolean() });

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
  /** What the tool's server says it does, in words ("Can delete or overwrite things ..."). */
  hints: z.array(z.string()).optional(),
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
  signInNeeded: (server: string) => `The tool server "${server}" needs you to sign in first: open Settings > Tools and press Sign in.`,
  serverNotFound: "No tool server under this id",
  alwaysAsks: "This tool always asks before it runs: its server says it can delete or overwrite things.",
  nameTaken: (name: string) => `A tool server named "${name}" already exists`,
  privateAddress: "This address is on this computer or a private network, which SAGE does not reach unless the administrator allows it",
  resourceNotFound: "This server offers no such resource",
  promptNotFound: "This server offers no such prompt",
  signInFailed: "Signing in did not work; try again from Settings > Tools.",
  signInDone: "Signed in. You can close this window.",
} as const;

export const approvalParamsSchema = z.object({ approvalId: z.string().min(1).max(100) });
