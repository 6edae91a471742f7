import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * A Streamable HTTP MCP server for tests (stateless: a server and transport per request), with one read-only tool,
 * `echo`. Requests without the expected Authorization header are refused, so tests see headers pass through.
 */
export async function startMcpHttpServer(options: { token: string }) {
  const http = createServer(async (request, response) => {
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401).end();
      return;
    }
    const server = new McpServer({ name: "sage-test-http", version: "1.0.0" });
    server.registerTool("echo", { description: "Echo the text back", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({
      content: [{ type: "text" as const, text: `echo: ${text}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
