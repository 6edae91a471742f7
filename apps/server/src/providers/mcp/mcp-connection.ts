import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JsonSchema } from "../llm/llm.ts";
import type { McpServerEntry } from "./mcp-config.ts";
import { connectionLost, errorLine, networkCause } from "./mcp-failure.ts";

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
/** How long a server over HTTP has to answer a ping once its connection dropped, before it counts as stopped. */
const PROBE_MS = 3_000;

type HttpTransport = "streamable" | "sse";
const HTTP_NAMES: Record<HttpTransport, string> = { streamable: "Streamable HTTP", sse: "HTTP with SSE" };

/** The SDK's "Connection closed" (McpError -32000): the program ended before it answered. */
const isConnectionClosed = (error: unknown) => (error as { code?: unknown })?.code === -32000;
/** The status a Streamable HTTP server answered (the SDK's StreamableHTTPError carries it as its code). */
const httpStatus = (error: unknown) => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "number" && code >= 100 && code < 600 ? code : undefined;
};

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
  /** Over HTTP, the transport that worked, used again on restarts (a stopped server is no reason to try another). */
  let httpTransport: HttpTransport | undefined;
  let probing = false;

  function transportFor(sdk: Sdk, http?: HttpTransport): Transport {
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
    return http === "sse" ? new sdk.SSEClientTransport(url, { requestInit }) : new sdk.StreamableHTTPClientTransport(url, { requestInit });
  }

  function fail(message: string) {
    state = "failed";
    error = message;
    failures += 1;
    retryAt = Date.now() + restartDelay(failures, options.backoffMs);
  }

  function scheduleRestart() {
    clearTimeout(restartTimer);
    restartTimer = setTimeout(() => void ensure().catch(() => undefined), retryAt - Date.now());
    restartTimer.unref();
  }

  /** The connected server is gone: its calls in flight fail now with the reason, and it restarts after its back-off. */
  function lost(connected: Client, message: string) {
    if (client !== connected || closed) return;
    client = undefined;
    fail(message);
    options.log(`MCP server ${entry.name} stopped: ${message}`);
    scheduleRestart();
    void connected.close().catch(() => undefined);
  }

  /**
   * Over HTTP a crash is a dropped stream or a failed request, not a closed pipe (the SDK only reports the error and
   * retries): ask the server with a ping, and count it stopped when it does not answer.
   */
  function probe(connected: Client) {
    if (probing || client !== connected || closed) return;
    probing = true;
    const limit = Math.min(PROBE_MS, options.timeoutMs);
    connected
      .ping({ timeout: limit })
      .catch((reason: unknown) => {
        const cause = /timed out/i.test((reason as Error)?.message ?? "") ? `no answer within ${Math.round(limit / 1000)} s` : networkCause(reason);
        lost(connected, `The server stopped (${HTTP_NAMES[httpTransport ?? "streamable"]}: ${cause})`);
      })
      .finally(() => (probing = false));
  }

  async function connect(http?: HttpTransport): Promise<Client> {
    const sdk = await loadSdk();
    const next = new sdk.Client({ name: "sage", version: "1.0.0" });
    const transport = transportFor(sdk, http);
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

  /**
   * Streamable HTTP first; the older HTTP+SSE transport only when the server answered that it does not take
   * Streamable HTTP's POST (a 4xx other than 401/403, as the MCP specification advises), never because it is down.
   */
  async function connectHttp(): Promise<Client> {
    const attempt = async (http: HttpTransport) => {
      try {
        const connected = await connect(http);
        httpTransport = http;
        return connected;
      } catch (reason) {
        throw Object.assign(new McpCallError(`Could not connect over ${HTTP_NAMES[http]}: ${networkCause(reason)}`), { status: httpStatus(reason) });
      }
    };
    if (httpTransport) return attempt(httpTransport);
    try {
      return await attempt("streamable");
    } catch (streamable) {
      const status = (streamable as { status?: number }).status;
      if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) throw streamable;
      return attempt("sse");
    }
  }

  /** Why a start failed, in words: the program's own error line rather than the SDK's "Connection closed". */
  function startFailure(reason: unknown): string {
    const message = (reason as Error)?.message || String(reason);
    if (!("stdio" in entry)) return message;
    const code = (reason as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT") return `Program not found: ${entry.stdio.command}`;
    if (code === "EACCES") return `Program cannot be run (permission denied): ${entry.stdio.command}`;
    const line = errorLine(stderr);
    if (isConnectionClosed(reason)) return `The program stopped before it was ready${line ? `: ${line}` : ""}`;
    return line ? `${message} (${line})` : message;
  }

  async function start(): Promise<Client> {
    state = "starting";
    error = undefined;
    stderr = "";
    let next: Client | undefined;
    try {
      next = "http" in entry ? await connectHttp() : await connect();
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
        const line = errorLine(stderr);
        fail(`The server stopped${line ? `: ${line}` : ""}`);
        scheduleRestart();
      };
      if ("http" in entry) next.onerror = () => probe(connected);
      return next;
    } catch (reason) {
      await next?.close().catch(() => undefined);
      fail(startFailure(reason));
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
        // The server was found stopped meanwhile (its pipe closed, or over HTTP its stream dropped): say why.
        if (client !== connected && state === "failed" && error) throw new McpCallError(error);
        const message = (reason as Error)?.message ?? String(reason);
        const gone = "http" in entry ? connectionLost(reason) : undefined;
        if (gone) {
          lost(connected, `The server stopped (${HTTP_NAMES[httpTransport ?? "streamable"]}: ${gone})`);
          throw new McpCallError(error ?? gone);
        }
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
