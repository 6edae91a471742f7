import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JsonSchema } from "../llm/llm.ts";
import type { McpServerEntry } from "./mcp-config.ts";

export type McpState = "connected" | "starting" | "failed";

/** A tool as its server describes it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
}

/** What a call gave back: its text (and whether the server called it an error). */
export interface McpCallResult {
  text: string;
  isError: boolean;
}

export class McpCallError extends Error {}

const STDERR_KEPT = 2_000;
const MAX_BACKOFF_MS = 60_000;

/** The SDK loads on the first server start, so SAGE's own start-up does not pay for it. */
const loadSdk = async () => {
  const [client, sse, stdio, streamable] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]);
  return { ...client, ...sse, ...stdio, ...streamable };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** 1 s, 2 s, 4 s ... up to a minute between restarts. */
export const restartDelay = (failures: number, baseMs: number) => Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, failures - 1));

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new McpCallError(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((item: { type?: string; text?: string; resource?: { text?: string; uri?: string } }) => {
      if (item?.type === "text") return item.text ?? "";
      if (item?.type === "resource") return item.resource?.text ?? item.resource?.uri ?? "";
      return `[${item?.type ?? "unknown"} content]`;
    })
    .join("\n");
}

/**
 * One configured MCP server: started on first use, restarted with back-off after a crash, stopped on close.
 * Failures are this server's own: they reject its calls with a clear message and never throw anywhere else.
 */
export function createMcpConnection(entry: McpServerEntry, options: { timeoutMs: number; backoffMs: number; log(message: string, error?: unknown): void }) {
  let state: McpState = "error" in entry ? "failed" : "starting";
  let error: string | undefined = "error" in entry ? entry.error : undefined;
  let started = false;
  let client: Client | undefined;
  let starting: Promise<Client> | undefined;
  let tools: McpToolInfo[] = [];
  let failures = 0;
  let retryAt = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let stderr = "";
  let closed = false;

  function transportFor(sdk: Sdk, useSse: boolean): Transport {
    if ("stdio" in entry) {
      const transport = new sdk.StdioClientTransport({
        command: entry.stdio.command,
        args: entry.stdio.args,
        env: { ...sdk.getDefaultEnvironment(), ...entry.stdio.env },
        cwd: entry.stdio.cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
      return transport;
    }
    if (!("http" in entry)) throw new McpCallError(error ?? "Invalid server entry");
    const url = new URL(entry.http.url);
    const requestInit = { headers: entry.http.headers };
    return useSse ? new sdk.SSEClientTransport(url, { requestInit }) : new sdk.StreamableHTTPClientTransport(url, { requestInit });
  }

  function fail(message: string) {
    state = "failed";
    error = message;
    failures += 1;
    retryAt = Date.now() + restartDelay(failures, options.backoffMs);
  }

  async function connect(useSse: boolean): Promise<Client> {
    const sdk = await loadSdk();
    const next = new sdk.Client({ name: "sage", version: "1.0.0" });
    const transport = transportFor(sdk, useSse);
    try {
      await withTimeout(next.connect(transport), options.timeoutMs, `did not start within ${Math.round(options.timeoutMs / 1000)} s`);
    } catch (reason) {
      // A program that never finished the handshake would otherwise keep running with nobody reading it.
      await next.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      throw reason;
    }
    return next;
  }

  async function start(): Promise<Client> {
    state = "starting";
    error = undefined;
    stderr = "";
    let next: Client | undefined;
    try {
      try {
        next = await connect(false);
      } catch (streamable) {
        if (!("http" in entry)) throw streamable;
        next = await connect(true); // an older server: HTTP with Server-Sent Events
      }
      const listed = await withTimeout(next.listTools(), options.timeoutMs, `did not list its tools within ${Math.round(options.timeoutMs / 1000)} s`);
      tools = listed.tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? tool.annotations?.title ?? "",
        inputSchema: tool.inputSchema as JsonSchema,
        readOnly: tool.annotations?.readOnlyHint === true,
      }));
      if (closed) throw new McpCallError("SAGE is closing");
      client = next;
      state = "connected";
      failures = 0;
      const connected = next;
      next.onclose = () => {
        if (client !== connected || closed) return;
        client = undefined;
        fail(`The server stopped${stderr.trim() ? `: ${stderr.trim().split("\n").at(-1)}` : ""}`);
        restartTimer = setTimeout(() => void ensure().catch(() => undefined), retryAt - Date.now());
        restartTimer.unref();
      };
      return next;
    } catch (reason) {
      await next?.close().catch(() => undefined);
      const detail = stderr.trim() ? ` (${stderr.trim().split("\n").at(-1)})` : "";
      fail(`${(reason as Error)?.message || String(reason)}${detail}`);
      options.log(`MCP server ${entry.name} failed to start`, reason);
      throw new McpCallError(error);
    } finally {
      starting = undefined;
    }
  }

  /** The connected client, starting the server when this is its first use or its back-off has passed. */
  function ensure(): Promise<Client> {
    if ("error" in entry) return Promise.reject(new McpCallError(entry.error));
    if (closed) return Promise.reject(new McpCallError("SAGE is closing"));
    if (client) return Promise.resolve(client);
    if (starting) return starting;
    if (state === "failed" && started && Date.now() < retryAt) return Promise.reject(new McpCallError(error ?? "failed"));
    started = true;
    clearTimeout(restartTimer);
    return (starting = start());
  }

  return {
    name: entry.name,
    transport: entry.transport,
    status: () => ({ state: started || "error" in entry ? state : ("starting" as McpState), error, tools: client ? tools : [] }),
    ensure: () => ensure().then(() => tools),

    async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult> {
      const connected = await ensure();
      try {
        const result = await connected.callTool({ name: tool, arguments: args }, undefined, { timeout: options.timeoutMs, signal });
        const text = textOf(result.content) || (result.structuredContent ? JSON.stringify(result.structuredContent) : "");
        return { text, isError: result.isError === true };
      } catch (reason) {
        const message = (reason as Error)?.message ?? String(reason);
        if (/timed out/i.test(message)) {
          // A server that let a call hang is restarted before its next use.
          if (client === connected) {
            client = undefined;
            fail(`did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
            retryAt = 0; // not a crash loop: the next use restarts it at once
            void connected.close().catch(() => undefined);
          }
          throw new McpCallError(`did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
        }
        throw new McpCallError(message);
      }
    },

    async close() {
      closed = true;
      clearTimeout(restartTimer);
      const open = client;
      client = undefined;
      await open?.close().catch(() => undefined);
      await starting?.then((late) => late.close()).catch(() => undefined);
    },
  };
}

export type McpConnection = ReturnType<typeof createMcpConnection>;
