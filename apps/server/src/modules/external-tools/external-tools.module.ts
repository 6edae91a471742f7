import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { JsonSchema, ToolSchemaProblem } from "../../providers/llm/llm.ts";
import type { McpHub } from "../../providers/mcp/mcp-hub.ts";
import type { Database } from "../../store/schema.ts";
import { createApprovals, type Approvals } from "./approvals.ts";

/** Asks the user to Approve or Decline an action (the chat's card, POST /api/approvals/{id}); SAGE's own tools use it too. */
export type ApprovalPort = Pick<Approvals, "request">;
import { registerExternalToolsRoutes } from "./external-tools.routes.ts";
import { createExternalToolsService } from "./external-tools.service.ts";
import { createToolSettingsRepo } from "./tool-settings.repo.ts";

/**
 * External tools: the MCP servers of the administrator's file, offered to the assistant per user (its
 * `toolsFor` port), the Tools settings (GET /api/tools, PATCH /api/tools/settings) and approvals
 * (GET /api/approvals, POST /api/approvals/{id}). The servers stop when the app closes.
 */
export function createExternalToolsModule(deps: {
  db: Kysely<Database>;
  hub: McpHub;
  approvalTimeoutMs: number;
  maxResultChars: number;
  /** The model's own check of a tool's input schema (LlmProvider.checkToolSchema), when it has one. */
  checkToolSchema?: (parameters: JsonSchema) => ToolSchemaProblem | undefined;
  warn(message: string, error?: unknown): void;
}) {
  const approvals = createApprovals({ timeoutMs: deps.approvalTimeoutMs });
  const service = createExternalToolsService({
    hub: deps.hub,
    settings: createToolSettingsRepo(deps.db),
    approvals,
    maxResultChars: deps.maxResultChars,
    checkToolSchema: deps.checkToolSchema,
    log: deps.warn,
  });
  const module: AppModule & { tools: { toolsFor: typeof service.toolsFor }; approvals: ApprovalPort } = {
    approvals: { request: approvals.request },
    register(app) {
      registerExternalToolsRoutes(app, { service, approvals });
      app.addHook("onClose", async () => {
        approvals.closeAll();
        await deps.hub.close();
      });
    },
    tools: { toolsFor: service.toolsFor },
  };
  return module;
}
