import { readMcpConfig, type McpServerEntry } from "./mcp-config.ts";
import {
  createMcpConnection,
  McpCallError,
  McpSignInNeeded,
  type McpCallResult,
  type McpConnection,
  type McpState,
  type McpToolInfo,
} from "./mcp-connection.ts";

export { McpCallError, McpSignInNeeded, type McpCallResult, type McpConnection, type McpToolInfo };

export interface McpServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: McpState;
  error?: string;
  tools: McpToolInfo[];
}

export interface McpHubOptions {
  /** The administrator's file (SAGE_MCP_CONFIG); the only place programs are defined. */
  configPath: string;
  /** Every call's (and start's) time limit. */
  timeoutMs: number;
  /** The first restart's delay after a crash; doubled each time. */
  backoffMs?: number;
  log(message: string, error?: unknown): void;
}

/** An entry of the file that each user signs in to: one connection per user, made by the external tools module. */
export const signsIn = (entry: McpServerEntry) => "http" in entry && entry.http.oauth !== undefined;

/**
 * The administrator's MCP servers, read once: one connection, shared by every user, for each program and each
 * remote server with the file's own headers (each started on first use, all closed with the app); a server each
 * user signs in to is left to the external tools module, which connects it per user.
 */
export function createMcpHub(options: McpHubOptions) {
  const file = readMcpConfig(options.configPath);
  if (file.error) options.log(file.error);
  const connectionOptions = { timeoutMs: options.timeoutMs, backoffMs: options.backoffMs ?? 1_000, log: options.log };
  const shared = new Map<string, McpConnection>(
    file.servers.filter((entry) => !signsIn(entry)).map((entry) => [entry.name, createMcpConnection(entry, connectionOptions)]),
  );

  return {
    configError: file.error,
    /** Every entry of the file, in its order. */
    entries: file.servers,
    timeoutMs: options.timeoutMs,
    backoffMs: connectionOptions.backoffMs,
    /** The shared connection of an entry (none for one each user signs in to). */
    shared: (name: string) => shared.get(name),
    async close() {
      await Promise.all([...shared.values()].map((connection) => connection.close()));
    },
  };
}

export type McpHub = ReturnType<typeof createMcpHub>;
