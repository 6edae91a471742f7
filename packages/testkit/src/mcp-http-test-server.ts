import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface McpHttpServerOptions {
  /** The one bearer token taken (unless `oauth`). */
  token?: string;
  /**
   * A server behind an authorization server, as remote MCP servers are: its protected-resource metadata (RFC 9728)
   * names the issuer, a request without an active token of this server's audience (RFC 8707) gets a 401 pointing at
   * it, and a `whoami` tool says whose token it was given.
   */
  oauth?: { issuer: string; scope: string; introspect(token: string): Promise<{ active: boolean; aud?: string | string[]; email?: string }> };
  /**
   * "streamable" (default): Streamable HTTP, stateless (a server and transport per request). "sessions": Streamable
   * HTTP with sessions, which keeps a GET stream open to each client, as stateful servers do. "sse": only the older
   * HTTP+SSE transport (GET opens the stream, POSTs go to /messages; a POST to the URL itself is refused).
   */
  mode?: "streamable" | "sessions" | "sse";
}

function createMcpServer(calls: string[], who?: string) {
  const server = new McpServer({ name: "sage-test-http", version: "1.0.0" });
  if (who !== undefined) {
    server.registerTool("whoami", { description: "Whose sign-in this is", annotations: { readOnlyHint: true } }, async () => {
      calls.push(`whoami ${who}`);
      return { content: [{ type: "text" as const, text: `signed in as ${who}` }] };
    });
  }
  server.registerTool(
    "echo",
    { description: "Echo the text back", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => {
      calls.push(`echo ${text}`);
      return { content: [{ type: "text" as const, text: `echo: ${text}` }] };
    },
  );
  server.registerTool(
    "wait",
    { description: "Answer after a while", inputSchema: { ms: z.number() }, annotations: { readOnlyHint: true } },
    async ({ ms }, extra) => {
      calls.push("wait");
      // The client's notifications/cancelled aborts the handler's signal: the call is recorded as cancelled.
      extra.signal.addEventListener("abort", () => calls.push("cancelled wait"), { once: true });
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        extra.signal.addEventListener("abort", () => resolve(clearTimeout(timer)), { once: true });
      });
      return { content: [{ type: "text" as const, text: `waited ${ms} ms` }] };
    },
  );
  return server;
}

/**
 * An MCP server over HTTP for tests, with two read-only tools, `echo` and `wait`. Requests without the expected
 * Authorization header are refused, so tests see headers pass through. `close()` drops every connection, as a
 * crash of the server would.
 */
export async function startMcpHttpServer(options: McpHttpServerOptions) {
  const mode = options.mode ?? "streamable";
  const sessions = new Map<string, StreamableHTTPServerTransport | SSEServerTransport>();
  const calls: string[] = [];
  let tokensRefused = 0;
  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://test");
    let who: string | undefined;
    if (options.oauth) {
      const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const metadataUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/.well-known/oauth-protected-resource/mcp`;
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        const metadata = {
          resource,
          authorization_servers: [options.oauth.issuer],
          scopes_supported: [options.oauth.scope],
          bearer_methods_supported: ["header"],
        };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata));
        return;
      }
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      const found = token ? await options.oauth.introspect(token) : { active: false };
      const audiences = [found.aud ?? []].flat();
      if (!found.active || !audiences.includes(resource)) {
        tokensRefused++;
        response
          .writeHead(401, { "www-authenticate": `Bearer resource_metadata="${metadataUrl}", scope="${options.oauth.scope}"` })
          .end(JSON.stringify({ error: "invalid_token" }));
        return;
      }
      who = found.email ?? "someone";
    } else if (request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401).end();
      return;
    }
    if (mode === "sse") {
      if (request.method === "GET" && url.pathname === "/mcp") {
        const transport = new SSEServerTransport("/messages", response);
        sessions.set(transport.sessionId, transport);
        await createMcpServer(calls).connect(transport);
      } else if (request.method === "POST" && url.pathname === "/messages") {
        const transport = sessions.get(url.searchParams.get("sessionId") ?? "") as SSEServerTransport | undefined;
        if (transport) await transport.handlePostMessage(request, response);
        else response.writeHead(404).end();
      } else response.writeHead(405).end();
      return;
    }
    const known = sessions.get(String(request.headers["mcp-session-id"])) as StreamableHTTPServerTransport | undefined;
    if (known) return known.handleRequest(request, response);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: mode === "sessions" ? () => randomUUID() : undefined,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    if (mode === "streamable") response.on("close", () => void transport.close());
    await createMcpServer(calls, who).connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    /** The calls that reached the server, in order: `wait`, `cancelled wait` (the client cancelled it), and `echo <text>` (what left SAGE). */
    calls,
    /** Requests refused for want of a valid token (with `oauth`). */
    tokensRefused: () => tokensRefused,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
