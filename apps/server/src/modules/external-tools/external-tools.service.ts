import { EXTERNAL_TOOL_TEXTS, type ExternalServer, type ExternalToolsResponse } from "@sage/contracts/external-tools";
import { notFound } from "../../http/app-error.ts";
import type { JsonSchema, ToolSchemaProblem } from "../../providers/llm/llm.ts";
import type { McpHub, McpServerStatus } from "../../providers/mcp/mcp-hub.ts";
import { McpCallError } from "../../providers/mcp/mcp-hub.ts";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import { modelToolName } from "./model-tool-name.ts";
import { choiceKey, type ToolChoice, type ToolSettingsRepo } from "./tool-settings.repo.ts";

export interface ExternalToolsDeps {
  hub: McpHub;
  settings: ToolSettingsRepo;
  /** A result longer than this is cut before the model sees it. */
  maxResultChars: number;
  /** Why the configured model cannot be given a tool with this input schema (Gemini takes a subset of JSON Schema). */
  checkToolSchema?: (parameters: JsonSchema) => ToolSchemaProblem | undefined;
  log(message: string, error?: unknown): void;
}

/** A result the model can take: cut to the cap, with a note saying so. */
export function capResult(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + EXTERNAL_TOOL_TEXTS.truncated(max, text.length);
}

/**
 * Every server with its tools as one user sees them (their model names and that user's choices), and a warning on
 * each tool the model cannot be given.
 */
function describe(servers: McpServerStatus[], choices: Map<string, ToolChoice>, check: ExternalToolsDeps["checkToolSchema"]): ExternalServer[] {
  const taken = new Set<string>();
  return servers.map((server) => ({
    name: server.name,
    transport: server.transport,
    state: server.state,
    ...(server.error ? { error: server.error } : {}),
    tools: server.tools.map((tool) => {
      const modelName = modelToolName(server.name, tool.name, taken);
      taken.add(modelName);
      const choice = choices.get(choiceKey(server.name, tool.name));
      const problem = check?.(tool.inputSchema);
      return {
        name: tool.name,
        modelName,
        description: tool.description,
        readOnly: tool.readOnly,
        enabled: choice?.enabled ?? true,
        ask: choice?.ask ?? !tool.readOnly,
        ...(problem ? { warning: problem.message, warningDetail: problem.detail } : {}),
      };
    }),
  }));
}

/**
 * The MCP servers' tools as assistant tools: each user's Enabled and Ask before running choices applied, a call
 * that needs approval marked so (the turn asks the user, decision 031), and every failure of a server turned into
 * a tool error. A server's answer is text the user did not type: the turn counts it as untrusted.
 */
export function createExternalToolsService(deps: ExternalToolsDeps) {
  const { hub } = deps;

  async function run(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal) {
    try {
      const answer = await hub.call(server, tool, args, signal);
      const text = capResult(answer.text, deps.maxResultChars);
      const untrustedFrom = [`${tool} (${server})`];
      return { result: answer.isError ? { success: false, error: text } : { success: true, result: text }, untrustedFrom };
    } catch (error) {
      if (!(error instanceof McpCallError)) throw error;
      deps.log(`MCP tool ${server}/${tool} failed`, error);
      return { result: { success: false, error: EXTERNAL_TOOL_TEXTS.serverFailed(server, error.message) } };
    }
  }

  return {
    async list(userId: number): Promise<ExternalToolsResponse> {
      const servers = describe(await hub.servers(), await deps.settings.forUser(userId), deps.checkToolSchema);
      return hub.configError ? { servers, error: hub.configError } : { servers };
    },

    async saveChoice(userId: number, change: { server: string; tool: string; enabled?: boolean; ask?: boolean }) {
      if (!hub.current().some((server) => server.name === change.server)) throw notFound(`No tool server named "${change.server}"`, "tool_server_not_found");
      await deps.settings.save(userId, change.server, change.tool, change);
      return { servers: describe(hub.current(), await deps.settings.forUser(userId), deps.checkToolSchema) };
    },

    /**
     * The enabled tools of the servers that are up, for one turn of this user (starting servers on first use); a tool
     * the model cannot be given is left out, as Settings > Tools says.
     */
    async toolsFor(userId: number): Promise<AssistantTool[]> {
      if (hub.current().length === 0) return [];
      const servers = describe(await hub.servers("until-started"), await deps.settings.forUser(userId), deps.checkToolSchema);
      const statuses = new Map(hub.current().map((server) => [server.name, server]));
      return servers.flatMap((server) =>
        server.tools
          .filter((tool) => tool.enabled && !tool.warning)
          .map((tool): AssistantTool => {
            const info = statuses.get(server.name)?.tools.find((item) => item.name === tool.name);
            return {
              name: tool.modelName,
              description: tool.description || `${tool.name} (from ${server.name})`,
              parameters: info?.inputSchema ?? { type: "object", properties: {} },
              readOnly: tool.readOnly,
              askFirst: tool.ask,
              // Read-only or not, a call sends its arguments to someone else's server.
              reach: "outside",
              run: (args, context) => run(server.name, tool.name, args, context.signal),
            };
          }),
      );
    },
  };
}

export type ExternalToolsService = ReturnType<typeof createExternalToolsService>;
