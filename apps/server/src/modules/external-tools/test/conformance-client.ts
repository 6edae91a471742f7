/**
 * The client the official MCP conformance suite drives (`conformance client --command "node <this, bundled>"`): SAGE's
 * own connection (providers/mcp) and its own answering of a server's questions (elicitations.ts), with a scripted
 * user who accepts every form as it stands (its defaults). The suite passes the server's address as the last
 * argument and the scenario in MCP_CONFORMANCE_SCENARIO; a failure exits 1.
 */
import { createMcpConnection } from "../../../providers/mcp/mcp-connection.ts";
import { mcpFetch } from "../../../providers/mcp/mcp-fetch.ts";
import type { JsonSchema } from "../../../providers/llm/llm.ts";
import { createElicitations } from "../elicitations.ts";

const url = process.argv.at(-1)!;
const log = (message: string, error?: unknown) => console.error(message, error ?? "");

/** Arguments a tool's input schema accepts: a number for numbers, a word for text. */
function sampleArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      property.type === "number" || property.type === "integer" ? 2 : property.type === "boolean" ? true : "conformance",
    ]),
  );
}

async function main() {
  const elicitations = createElicitations({ timeoutMs: 30_000 });
  const connection = createMcpConnection(
    { name: "conformance", transport: "http", http: { url, headers: {} } },
    { timeoutMs: 60_000, backoffMs: 1_000, log, fetch: mcpFetch({ allowPrivate: true, allowHosts: [] }) },
  );
  try {
    const tools = await connection.ensure();
    for (const tool of tools) {
      const result = await connection.call(tool.name, sampleArguments(tool.inputSchema), {
        caller: {
          owner: "user:1",
          elicit: (question, signal) =>
            elicitations.ask(1, { id: "conformance", name: "conformance" }, question, signal, (request) =>
              // The user accepts the form as it stands: SAGE fills in each default (SEP-1034).
              queueMicrotask(() => elicitations.answer(1, request.elicitationId, { action: "accept", content: {} })),
            ),
        },
      });
      console.log(`${tool.name}: ${result.isError ? "error" : "ok"} ${result.text.slice(0, 200)}`);
    }
  } finally {
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error((error as Error)?.stack ?? error);
    process.exit(1);
  },
);
