import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { callResult, createOutputChecker, McpOutputError, type McpCallResult, type OutputChecker } from "./mcp-call-result.ts";
import { createCallers, type McpCaller, type McpElicitResult } from "./mcp-callers.ts";
import { emptyCatalog, listCatalog, listPrompts, listResources, listTools, type CatalogPart, type McpCatalog, type McpToolInfo } from "./mcp-catalog.ts";
import type { McpServerEntry } from "./mcp-config.ts";
import { connectionLost, errorLine, networkCause } from "./mcp-failure.ts";

export type { McpCallResult, McpToolInfo };

export type McpState = "connected" | "starting" | "failed" | "sign-in-needed";

export class McpCallError extends Error {}
/** The server wants its user to sign in (again): nothing runs until they do. */
export class McpSignInNeeded extends McpCallError {}

const STDERR_KEPT = 2_000;
const MAX_BACKOFF_MS = 60_000;
/** How long a server over HTTP has to answer a ping once its connection dropped, before it counts as stopped. */
const PROBE_MS = 3_000;
/** A burst of list_changed notifications is read once. */
const REFRESH_DEBOUNCE_MS = 200;
/** The client SAGE introduces itself as; its version is the protocol client's, not SAGE's own. */
const CLIENT_INFO = { name: "sage", title: "SAGE", version: "1.0.0" };

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
  const [client, sse, stdio, streamable, types, auth, ajv] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
    import("@modelcontextprotocol/sdk/validation/ajv"),
  ]);
  return { ...client, ...sse, ...stdio, ...streamable, types, UnauthorizedError: auth.UnauthorizedError, AjvJsonSchemaValidator: ajv.AjvJsonSchemaValidator };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdkLoaded: Promise<Sdk> | undefined;
let checker: OutputChecker | undefined;

/** The SDK's own limit for a call, above SAGE's (callTimer), which it never reaches unless SAGE's stood still a day. */
const CALL_TIMEOUT_CEILING_MS = 24 * 3_600_000;

/**
 * A call's time limit: `touch` starts it again (a progress report), `paused` stops it while the server waits for
 * its user (a question); when it runs out its signal aborts the call, which the SDK tells the server.
 */
function callTimer(ms: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let pauses = 0;
  const state = { expired: false };
  const arm = () => {
    clearTimeout(timer);
    if (pauses > 0) return;
    timer = setTimeout(() => {
      state.expired = true;
      controller.abort(new McpCallError(`timed out after ${Math.round(ms / 1000)} s`));
    }, ms);
  };
  arm();
  return {
    signal: controller.signal,
    get expired() {
      return state.expired;
    },
    touch: arm,
    async paused<T>(work: () => Promise<T>): Promise<T> {
      pauses += 1;
      clearTimeout(timer);
      try {
        return await work();
      } finally {
        pauses -= 1;
        arm();
      }
    },
    clear: () => clearTimeout(timer),
  };
}

/** 1 s, 2 s, 4 s ... up to a minute between restarts. */
export const restartDelay = (failures: number, baseMs: number) => Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, failures - 1));

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new McpCallError(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface McpConnectionOptions {
  timeoutMs: number;
  backoffMs: number;
  log(message: string, error?: unknown): void;
  /** Over HTTP: how requests reach the server (the private-address rule). */
  fetch?: FetchLike;
  /**
   * Over HTTP: the user's sign-in to this server (its tokens, refreshed; sign-in-needed when there are none), read
   * at each start; `signedIn` says whether a server waiting for a sign-in may be tried again.
   */
  auth?: () => Promise<{ provider: OAuthClientProvider; fetch?: FetchLike; signedIn?(): Promise<boolean> }>;
  /** What the server offers changed (its list_changed notifications), and has been read again. */
  onChange?(part: CatalogPart): void;
  /** A resource this connection subscribed to changed (notifications/resources/updated). */
  onResourceUpdated?(uri: string): void;
}

/** What `call` takes besides the tool and its arguments. */
export interface McpCallOptions {
  signal?: AbortSignal;
  /** Whose call it is: the server's questions and progress go to them. */
  caller?: McpCaller;
}

/**
 * One MCP server: started on first use, restarted with back-off after a crash, stopped on close. Failures are this
 * server's own: they reject its calls with a clear message and never throw anywhere else. Besides tools it keeps
 * what the server offers (resources, templates, prompts), read again when the server says its lists changed.
 */
export function createMcpConnection(entry: McpServerEntry, options: McpConnectionOptions) {
  let state: McpState = "error" in entry ? "failed" : "starting";
  let error: string | undefined = "error" in entry ? entry.error : undefined;
  let started = false;
  let client: Client | undefined;
  let starting: Promise<Client> | undefined;
  let catalog: McpCatalog = emptyCatalog();
  let failures = 0;
  let retryAt = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let stderr = "";
  let closed = false;
  /** Over HTTP, the transport that worked, used again on restarts (a stopped server is no reason to try another). */
  let httpTransport: HttpTransport | undefined;
  let probing = false;
  const callers = createCallers();
  const subscribed = new Set<string>();
  /** When each subscribed resource last changed, as the server said. */
  const updates = new Map<string, string>();
  const refreshTimers = new Map<CatalogPart, NodeJS.Timeout>();
  const request = () => ({ timeout: options.timeoutMs });

  /** The sign-in of the current start, if the server takes one. */
  let signIn: Awaited<ReturnType<NonNullable<McpConnectionOptions["auth"]>>> | undefined;

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
    const settings = { requestInit: { headers: entry.http.headers }, fetch: signIn?.fetch ?? options.fetch, authProvider: signIn?.provider };
    return http === "sse" ? new sdk.SSEClientTransport(url, settings) : new sdk.StreamableHTTPClientTransport(url, settings);
  }

  function fail(message: string) {
    state = "failed";
    error = message;
    failures += 1;
    retryAt = Date.now() + restartDelay(failures, options.backoffMs);
  }

  /** The server (or its authorization server) wants the user to sign in; nothing is retried until they have. */
  function needSignIn(message = "Sign in needed") {
    state = "sign-in-needed";
    error = message;
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

  /** The server refused the user's token and it could not be refreshed: a sign-in is needed, not a restart. */
  function signedOut(connected: Client) {
    if (client !== connected || closed) return;
    client = undefined;
    needSignIn("Sign in again");
    void connected.close().catch(() => undefined);
  }

  /**
   * Over HTTP a crash is a dropped stream or a failed request, not a closed pipe (the SDK only reports the error and
   * retries): ask the server with a ping, and count it stopped when it does not answer. A refused sign-in (on the
   * failed request or on the ping) is no crash: it wins whichever of the call and the probe sees it first.
   */
  function probe(connected: Client, failure?: unknown) {
    if (probing || client !== connected || closed) return;
    const sdk = sdkLoaded;
    probing = true;
    const limit = Math.min(PROBE_MS, options.timeoutMs);
    void (sdk ?? Promise.resolve(undefined))
      .then((loaded) => {
        if (loaded && failure instanceof loaded.UnauthorizedError) return signedOut(connected);
        return connected.ping({ timeout: limit }).then(
          () => undefined,
          (reason: unknown) => {
            if (loaded && reason instanceof loaded.UnauthorizedError) return signedOut(connected);
            const cause = /timed out/i.test((reason as Error)?.message ?? "") ? `no answer within ${Math.round(limit / 1000)} s` : networkCause(reason);
            lost(connected, `The server stopped (${HTTP_NAMES[httpTransport ?? "streamable"]}: ${cause})`);
          },
        );
      })
      .finally(() => (probing = false));
  }

  /** Reads one list again after the server said it changed; a burst of notifications is read once. */
  function refresh(part: CatalogPart, connected: Client) {
    clearTimeout(refreshTimers.get(part));
    const timer = setTimeout(() => {
      refreshTimers.delete(part);
      if (client !== connected) return;
      const reading =
        part === "tools"
          ? listTools(connected, request()).then((tools) => (catalog = { ...catalog, tools }))
          : part === "resources"
            ? listResources(connected, request()).then((found) => (catalog = { ...catalog, ...found }))
            : listPrompts(connected, request()).then((prompts) => (catalog = { ...catalog, prompts }));
      reading.then(
        () => options.onChange?.(part),
        (reason: unknown) => options.log(`MCP server ${entry.name}: reading its ${part} again failed`, reason),
      );
    }, REFRESH_DEBOUNCE_MS);
    timer.unref();
    refreshTimers.set(part, timer);
  }

  /** A question from the server goes to the user whose call it belongs to (mcp-callers.ts), else it is cancelled. */
  async function elicit(params: Record<string, unknown>, signal: AbortSignal): Promise<McpElicitResult> {
    const caller = callers.askFor();
    if (!caller?.elicit) return { action: "cancel" };
    const url = params.mode === "url";
    return caller.elicit(
      {
        mode: url ? "url" : "form",
        message: String(params.message ?? ""),
        ...(url ? { url: String(params.url ?? ""), elicitationId: String(params.elicitationId ?? "") } : { requestedSchema: params.requestedSchema }),
      },
      signal,
    );
  }

  async function connect(http?: HttpTransport): Promise<Client> {
    const sdk = await (sdkLoaded ??= loadSdk());
    const validator = new sdk.AjvJsonSchemaValidator();
    checker ??= createOutputChecker(validator);
    const next = new sdk.Client(CLIENT_INFO, {
      capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } },
      jsonSchemaValidator: validator,
    });
    next.setRequestHandler(
      sdk.types.ElicitRequestSchema,
      (message, extra) => elicit(message.params as Record<string, unknown>, extra.signal) as Promise<ElicitResult>,
    );
    next.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, () => refresh("tools", next));
    next.setNotificationHandler(sdk.types.ResourceListChangedNotificationSchema, () => refresh("resources", next));
    next.setNotificationHandler(sdk.types.PromptListChangedNotificationSchema, () => refresh("prompts", next));
    next.setNotificationHandler(sdk.types.ResourceUpdatedNotificationSchema, (message) => {
      updates.set(message.params.uri, new Date().toISOString());
      options.onResourceUpdated?.(message.params.uri);
    });
    const transport = transportFor(sdk, http);
    try {
      await withTimeout(next.connect(transport), options.timeoutMs, `did not start within ${Math.round(options.timeoutMs / 1000)} s`);
    } catch (reason) {
      // A program that never finished the handshake would otherwise keep running with nobody reading it.
      await next.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      if (reason instanceof sdk.UnauthorizedError) throw new McpSignInNeeded(reason.message === "Sign in again" ? reason.message : "Sign in needed");
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
        if (reason instanceof McpSignInNeeded) throw reason;
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
      signIn = options.auth ? await options.auth() : undefined;
      next = "http" in entry ? await connectHttp() : await connect();
      const connectedNow = next;
      catalog = await withTimeout(
        listCatalog(connectedNow, request(), (message, reason) => options.log(`MCP server ${entry.name}: ${message}`, reason)),
        options.timeoutMs,
        `did not list its tools within ${Math.round(options.timeoutMs / 1000)} s`,
      );
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
      if ("http" in entry) next.onerror = (failure) => probe(connected, failure);
      for (const uri of subscribed) void connected.subscribeResource({ uri }, request()).catch(() => undefined);
      return next;
    } catch (reason) {
      await next?.close().catch(() => undefined);
      // A server may let the handshake through and ask for a sign-in only when its tools are listed.
      const sdk = await sdkLoaded;
      const refused =
        sdk && reason instanceof sdk.UnauthorizedError ? new McpSignInNeeded(reason.message === "Sign in again" ? reason.message : "Sign in needed") : reason;
      if (refused instanceof McpSignInNeeded) {
        needSignIn(refused.message);
        throw refused;
      }
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
    if (state === "sign-in-needed" && started) {
      // Tried again once the user signed in (through this process or another one sharing the database).
      const waiting = error ?? "Sign in needed";
      return (signIn?.signedIn?.() ?? Promise.resolve(false)).then((ready) => {
        if (!ready || client || starting || closed) return client ?? starting ?? Promise.reject(new McpSignInNeeded(waiting));
        return (starting = start());
      });
    }
    if (state === "failed" && started && Date.now() < retryAt) return Promise.reject(new McpCallError(error ?? "failed"));
    started = true;
    clearTimeout(restartTimer);
    return (starting = start());
  }

  /** A failure of a request other than a call, in words. */
  async function asked<T>(what: (connected: Client) => Promise<T>): Promise<T> {
    const connected = await ensure();
    try {
      return await what(connected);
    } catch (reason) {
      const sdk = await sdkLoaded!;
      if (reason instanceof sdk.UnauthorizedError) {
        needSignIn("Sign in again");
        if (client === connected) client = undefined;
        throw new McpSignInNeeded("Sign in again");
      }
      throw new McpCallError((reason as Error)?.message ?? String(reason));
    }
  }

  return {
    name: entry.name,
    transport: entry.transport,
    status: () => ({
      state: started || "error" in entry ? state : ("starting" as McpState),
      error,
      tools: client ? catalog.tools : [],
    }),
    /** What the server offers now (empty while it is not connected). */
    catalog: (): McpCatalog => (client ? catalog : emptyCatalog()),
    ensure: () => ensure().then(() => catalog.tools),

    async call(tool: string, args: Record<string, unknown>, callOptions: McpCallOptions = {}): Promise<McpCallResult> {
      const connected = await ensure();
      const { caller } = callOptions;
      // SAGE keeps the call's time limit itself: it starts again at each progress report (the server is still
      // working) and stands still while the server waits for its user's answer to a question.
      const limit = callTimer(options.timeoutMs);
      const signal = callOptions.signal ? AbortSignal.any([callOptions.signal, limit.signal]) : limit.signal;
      const done = caller
        ? callers.add({
            owner: caller.owner,
            elicit: caller.elicit && ((question, aborted) => limit.paused(() => caller.elicit!(question, aborted))),
          })
        : () => undefined;
      try {
        const result = await connected.callTool({ name: tool, arguments: args }, undefined, {
          timeout: CALL_TIMEOUT_CEILING_MS,
          signal,
          onprogress: (progress) => {
            limit.touch();
            caller?.progress?.(progress);
          },
        });
        return callResult(result as Parameters<typeof callResult>[0], catalog.tools.find((item) => item.name === tool)?.outputSchema, checker!);
      } catch (reason) {
        if (reason instanceof McpOutputError) throw new McpCallError(reason.message);
        const sdk = await sdkLoaded!;
        if (reason instanceof sdk.UnauthorizedError) {
          // The token was refused and could not be refreshed: the user signs in again.
          if (client === connected) signedOut(connected);
          else if (state !== "sign-in-needed") needSignIn("Sign in again");
          throw new McpSignInNeeded("Sign in again");
        }
        // The refusal closed this connection before the call heard of it (the transport reports the refused token
        // to onerror, and the probe signs out, before its own promise rejects): the call ends "Connection closed".
        if (client !== connected && state === "sign-in-needed") throw new McpSignInNeeded(error ?? "Sign in again");
        // The server was found stopped meanwhile (its pipe closed, or over HTTP its stream dropped): say why.
        if (client !== connected && state === "failed" && error) throw new McpCallError(error);
        const message = (reason as Error)?.message ?? String(reason);
        const gone = "http" in entry ? connectionLost(reason) : undefined;
        if (gone) {
          lost(connected, `The server stopped (${HTTP_NAMES[httpTransport ?? "streamable"]}: ${gone})`);
          throw new McpCallError(error ?? gone);
        }
        if (limit.expired || /timed out/i.test(message)) {
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
      } finally {
        limit.clear();
        done();
      }
    },

    readResource: (uri: string) => asked((connected) => connected.readResource({ uri }, request())),

    getPrompt: (name: string, args: Record<string, string>) => asked((connected) => connected.getPrompt({ name, arguments: args }, request())),

    /** When a subscribed resource last changed (its server's notifications/resources/updated), if it has. */
    updatedAt: (uri: string) => updates.get(uri),

    /** Asks the server to say when this resource changes (when it can); kept across restarts. */
    async subscribe(uri: string) {
      if (subscribed.has(uri)) return;
      subscribed.add(uri);
      const connected = await ensure();
      if (!connected.getServerCapabilities()?.resources?.subscribe) return;
      await connected.subscribeResource({ uri }, request()).catch((reason: unknown) => options.log(`MCP server ${entry.name}: subscribing failed`, reason));
    },

    /** Starts afresh (after the user signed in): the next use connects with the new tokens. */
    async restart() {
      const open = client;
      client = undefined;
      started = false;
      failures = 0;
      state = "starting";
      error = undefined;
      await open?.close().catch(() => undefined);
    },

    async close() {
      closed = true;
      clearTimeout(restartTimer);
      for (const timer of refreshTimers.values()) clearTimeout(timer);
      const open = client;
      client = undefined;
      await open?.close().catch(() => undefined);
      await starting?.then((late) => late.close()).catch(() => undefined);
    },
  };
}

export type McpConnection = ReturnType<typeof createMcpConnection>;
