import { annotationsInWords, EXTERNAL_TOOL_TEXTS, type ExternalServer, type ExternalToolsResponse, type ToolOutput } from "@sage/contracts/external-tools";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { JsonSchema, ToolSchemaProblem } from "../../providers/llm/llm.ts";
import type { McpToolInfo } from "../../providers/mcp/mcp-hub.ts";
import { McpCallError, McpSignInNeeded } from "../../providers/mcp/mcp-hub.ts";
import type { AssistantTool, ToolContext } from "../assistant/assistant.module.ts";
import type { Elicitations } from "./elicitations.ts";
import { modelToolName } from "./model-tool-name.ts";
import type { ServerDirectory, ToolServer } from "./server-directory.ts";
import { choiceKey, type ToolChoice, type ToolSettingsRepo } from "./tool-settings.repo.ts";
import type { ToolServersRepo } from "./tool-servers.repo.ts";

export interface ExternalToolsDeps {
  directory: ServerDirectory;
  settings: ToolSettingsRepo;
  servers: ToolServersRepo;
  elicitations: Elicitations;
  /** A result longer than this is cut before the model sees it. */
  maxResultChars: number;
  /** Why the configured model cannot be given a tool with this input schema (Gemini takes a subset of JSON Schema). */
  checkToolSchema?: (parameters: JsonSchema) => ToolSchemaProblem | undefined;
  /** Where a user signs in to a server that asks for it (the sign-in flow's start). */
  signInUrl?(serverId: string): string;
  log(message: string, error?: unknown): void;
}

/** A result the model can take: cut to the cap, with a note saying so. */
export function capResult(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + EXTERNAL_TOOL_TEXTS.truncated(max, text.length);
}

const NEEDS_TASKS = "This tool runs only as a background task, which SAGE does not run, so chats leave it out.";

/** A tool's rules for one user (decision 080): a server's hints count only when the user trusts the server. */
export function toolRules(tool: McpToolInfo, trusted: boolean, choice: ToolChoice | undefined) {
  const readOnly = trusted && tool.readOnly;
  const alwaysAsks = !tool.readOnly && tool.annotations.destructiveHint === true;
  return { readOnly, alwaysAsks, ask: alwaysAsks || (choice?.ask ?? !readOnly), enabled: choice?.enabled ?? true };
}

/**
 * Every server with its tools as one user sees them (their model names and that user's choices), and a warning on
 * each tool the model cannot be given.
 */
function describe(
  servers: ToolServer[],
  choices: Map<string, ToolChoice>,
  trust: Map<string, boolean>,
  check: ExternalToolsDeps["checkToolSchema"],
  signInUrl: ExternalToolsDeps["signInUrl"],
): ExternalServer[] {
  const taken = new Set<string>();
  return servers.map((server) => {
    const status = server.connection.status();
    const trusted = trust.get(server.id) ?? server.trustedByDefault;
    return {
      id: server.id,
      name: server.name,
      source: server.source,
      transport: server.transport,
      ...(server.url ? { url: server.url } : {}),
      state: status.state,
      ...(status.error ? { error: status.error } : {}),
      ...(status.state === "sign-in-needed" && signInUrl ? { signInUrl: signInUrl(server.id) } : {}),
      trusted,
      tools: status.tools.map((tool) => {
        const modelName = modelToolName(server.name, tool.name, taken);
        taken.add(modelName);
        const rules = toolRules(tool, trusted, choices.get(choiceKey(server.name, tool.name)));
        const problem = tool.needsTasks ? { message: NEEDS_TASKS, detail: 'execution.taskSupport is "required"' } : check?.(tool.inputSchema);
        return {
          name: tool.name,
          server: server.name,
          serverId: server.id,
          ...(tool.title ? { title: tool.title } : {}),
          modelName,
          description: tool.description,
          readOnly: rules.readOnly,
          annotations: tool.annotations,
          alwaysAsks: rules.alwaysAsks,
          structuredOutput: tool.outputSchema !== undefined,
          enabled: rules.enabled,
          ask: rules.ask,
          ...(problem ? { warning: problem.message, warningDetail: problem.detail } : {}),
        };
      }),
    };
  });
}

/**
 * The MCP servers' tools as assistant tools: each user's Enabled and Ask before running choices applied, a call
 * that needs approval marked so (the turn asks the user, decision 031), and every failure of a server turned into
 * a tool error. A server's answer is text the user did not type: the turn counts it as untrusted. While a tool
 * runs, its progress and its server's questions go to the user's turn.
 */
export function createExternalToolsService(deps: ExternalToolsDeps) {
  async function run(server: ToolServer, tool: string, args: Record<string, unknown>, context: ToolContext) {
    const announce = (event: Parameters<NonNullable<ToolContext["emit"]>>[0]) => context.emit?.(event);
    try {
      const answer = await server.connection.call(tool, args, {
        signal: context.signal,
        caller: {
          owner: `user:${context.userId}`,
          // A scheduled run has nobody to ask: the server's question is cancelled.
          ...(context.unattended
            ? {}
            : {
                elicit: (question, aborted) =>
                  deps.elicitations.ask(context.userId, server, question, AbortSignal.any([aborted, context.signal]), (request) =>
                    announce({ type: "elicitation-required", ...request }),
                  ),
              }),
          progress: (progress) => announce({ type: "tool-progress", id: context.callId ?? "", ...progress }),
        },
      });
      const text = capResult(answer.text, deps.maxResultChars);
      const untrustedFrom = [`${tool} (${server.name})`];
      const output: ToolOutput | undefined =
        answer.structured || answer.links
          ? { serverId: server.id, ...(answer.structured ? { structured: answer.structured } : {}), ...(answer.links ? { links: answer.links } : {}) }
          : undefined;
      return {
        result: answer.isError ? { success: false, error: text } : { success: true, result: text },
        untrustedFrom,
        ...(output ? { output } : {}),
      };
    } catch (error) {
      if (error instanceof McpSignInNeeded) return { result: { success: false, error: EXTERNAL_TOOL_TEXTS.signInNeeded(server.name) } };
      if (!(error instanceof McpCallError)) throw error;
      deps.log(`MCP tool ${server.name}/${tool} failed`, error);
      return { result: { success: false, error: EXTERNAL_TOOL_TEXTS.serverFailed(server.name, error.message) } };
    }
  }

  async function listFor(userId: number, servers: ToolServer[]) {
    const [choices, trust] = await Promise.all([deps.settings.forUser(userId), deps.servers.trust(userId)]);
    return describe(servers, choices, trust, deps.checkToolSchema, deps.signInUrl);
  }

  return {
    async list(userId: number): Promise<ExternalToolsResponse> {
      const servers = await listFor(userId, await deps.directory.started(userId, "briefly"));
      const { configError } = deps.directory;
      return configError ? { servers, error: configError } : { servers };
    },

    async saveChoice(userId: number, change: { server: string; tool: string; enabled?: boolean; ask?: boolean }) {
      const servers = await deps.directory.forUser(userId);
      const server = servers.find((item) => item.name === change.server);
      if (!server) throw notFound(`No tool server named "${change.server}"`, "tool_server_not_found");
      const tool = server.connection.status().tools.find((item) => item.name === change.tool);
      if (change.ask === false && tool && toolRules(tool, false, undefined).alwaysAsks) throw badRequest(EXTERNAL_TOOL_TEXTS.alwaysAsks, "always_asks");
      await deps.settings.save(userId, change.server, change.tool, change);
      return { servers: await listFor(userId, servers) };
    },

    /**
     * The enabled tools of the servers that are up, for one turn of this user (starting servers on first use); a tool
     * the model cannot be given is left out, as Settings > Tools says.
     */
    async toolsFor(userId: number): Promise<AssistantTool[]> {
      const started = await deps.directory.started(userId, "until-started");
      if (started.length === 0) return [];
      const described = await listFor(userId, started);
      return described.flatMap((server, index) => {
        const handle = started[index]!;
        const infos = handle.connection.status().tools;
        return server.tools
          .filter((tool) => tool.enabled && !tool.warning)
          .map((tool): AssistantTool => {
            const info = infos.find((item) => item.name === tool.name);
            const hints = annotationsInWords(tool.annotations);
            return {
              name: tool.modelName,
              description: tool.description || `${tool.name} (from ${server.name})`,
              parameters: info?.inputSchema ?? { type: "object", properties: {} },
              readOnly: tool.readOnly,
              askFirst: tool.ask,
              // Read-only or not, a call sends its arguments to someone else's server.
              reach: "outside",
              ...(hints.length > 0 ? { hints: hints.map((hint) => `${server.name} says: ${hint}`) } : {}),
              run: (args, context) => run(handle, tool.name, args, context),
            };
          });
      });
    },
  };
}

export type ExternalToolsService = ReturnType<typeof createExternalToolsService>;
