import type { Kysely } from "kysely";
import type { AppModule } from "../../http/app-module.ts";
import type { JsonSchema, ToolSchemaProblem } from "../../providers/llm/llm.ts";
import type { McpHub } from "../../providers/mcp/mcp-hub.ts";
import type { Database } from "../../store/schema.ts";
import { createApprovals, type ApprovalsPort } from "./approvals.ts";
import { registerExternalToolsRoutes } from "./external-tools.routes.ts";
import { createExternalToolsService } from "./external-tools.service.ts";
import { createToolSettingsRepo } from "./tool-settings.repo.ts";

/**
 * External tools: the MCP servers of the administrator's file, offered to the assistant per user (its
 * `toolsFor` port), the Tools settings (GET /api/tools, PATCH /api/tools/settings) and approvals
 * (GET /api/approvals, POST /api/approvals/{id}; the port `approvals`, through which the turn asks). The servers stop when the app closes.
 */
export function createExternalToolsModule(deps: {
  db: Kysely<Database>;
  hub: McpHub;
  approvalTimeoutMs: number;
  maxResultChars: number;
  /** The model's own check of a tool's input schema (LlmProvider.checkToolSchema), when it has one. */
  checkToolSchema?: (parameters: JsonSchema) => ToolSchemaProblem | undefined;
  /** Approvals shared by the processes on one database (shared-approvals.ts); else this process's own. */
  approvals?: ApprovalsPort;
  warn(message: string, error?: unknown): void;
}) {
  const approvals: ApprovalsPort = deps.approvals ?? createApprovals({ timeoutMs: deps.approvalTimeoutMs });
  const service = createExternalToolsService({
    hub: deps.hub,
    settings: createToolSettingsRepo(deps.db),
    maxResultChars: deps.maxResultChars,
    checkToolSchema: deps.checkToolSchema,
    log: deps.warn,
  });
  const module: AppModule & { tools: { toolsFor: typeof service.toolsFor }; approvals: typeof approvals } = {
    register(app) {
      registerExternalToolsRoutes(app, { service, approvals });
      app.addHook("onClose", async () => {
        approvals.closeAll();
        await deps.hub.close();
      });
    },
    tools: { toolsFor: service.toolsFor },
    /** Where any call that needs the user's answer waits (the assistant's turn asks through it). */
    approvals,
  };
  return module;
}
