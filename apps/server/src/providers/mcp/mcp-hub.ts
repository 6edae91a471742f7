import { readMcpConfig } from "./mcp-config.ts";
import { createMcpConnection, McpCallError, type McpCallResult, type McpState, type McpToolInfo } from "./mcp-connection.ts";

export { McpCallError, type McpCallResult, type McpToolInfo };

export interface McpServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: McpState;
  error?: string;
  tools: McpToolInfo[];
}

export interface McpHubOptions {
  /** The administrator's file (SAGE_MCP_CONFIG); the only place servers are defined. */
  configPath: string;
  /** Every call's (and start's) time limit. */
  timeoutMs: number;
  /** The first restart's delay after a crash; doubled each time. */
  backoffMs?: number;
  /** How long a listing waits for servers that are still starting. */
  listWaitMs?: number;
  log(message: string, error?: unknown): void;
}

/** The configured MCP servers: read once, each started on first use, all closed with the app. */
export function createMcpHub(options: McpHubOptions) {
  const file = readMcpConfig(options.configPath);
  if (file.error) options.log(file.error);
  const connections = new Map(
    file.servers.map((entry) => [
      entry.name,
      createMcpConnection(entry, { timeoutMs: options.timeoutMs, backoffMs: options.backoffMs ?? 1_000, log: options.log }),
    ]),
  );
  const listWaitMs = options.listWaitMs ?? Math.min(options.timeoutMs, 5_000);

  const statuses = (): McpServerStatus[] =>
    [...connections.values()].map((connection) => ({ name: connection.name, transport: connection.transport, ...connection.status() }));

  return {
    configError: file.error,
    /**
     * Every server's state and tools, starting those not started yet: waiting a little for them (a listing), or
     * until each started or failed (a turn, which needs their tools; a start has its own time limit).
     */
    async servers(wait: "briefly" | "until-started" = "briefly"): Promise<McpServerStatus[]> {
      const starts = Promise.all([...connections.values()].map((connection) => connection.ensure().catch(() => undefined)));
      let timer: NodeJS.Timeout | undefined;
      if (wait === "until-started") await starts;
      else await Promise.race([starts, new Promise((resolve) => (timer = setTimeout(resolve, listWaitMs)))]);
      clearTimeout(timer);
      return statuses();
    },
    /** The servers as they are now, starting nothing. */
    current: statuses,
    /** Runs one tool; rejects with McpCallError when the server failed, crashed or did not answer in time. */
    async call(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult> {
      const connection = connections.get(server);
      if (!connection) throw new McpCallError(`No tool server named "${server}"`);
      return connection.call(tool, args, signal);
    },
    async close() {
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}

export type McpHub = ReturnType<typeof createMcpHub>;
