/**
 * A small stdio MCP server for tests, built with the official SDK: `read_note` (read-only) and `write_note`
 * (writes a file in NOTES_DIR). With MCP_TEST_FAULTS=1 it also offers `crash` (the process exits mid-call),
 * `hang` (never answers), `garbage` (prints non-protocol lines on stdout, then answers) and `big` (a very long answer). Plain JavaScript, so it starts without a loader.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const notesDir = process.env.NOTES_DIR ?? process.cwd();
const noteFile = (name) => path.join(notesDir, `${name.replace(/[^a-zA-Z0-9_-]/g, "_")}.txt`);
const text = (value) => ({ content: [{ type: "text", text: value }] });

const server = new McpServer({ name: "sage-test-notes", version: "1.0.0" });

server.registerTool(
  "read_note",
  { description: "Read a note by name", inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
  async ({ name }) => text(existsSync(noteFile(name)) ? readFileSync(noteFile(name), "utf8") : `No note named ${name}`),
);

server.registerTool(
  "write_note",
  { description: "Write a note (replaces one with the same name)", inputSchema: { name: z.string(), text: z.string() }, annotations: { readOnlyHint: false, destructiveHint: true } },
  async ({ name, text: body }) => {
    mkdirSync(notesDir, { recursive: true });
    writeFileSync(noteFile(name), body);
    return text(`Saved note ${name}`);
  },
);

if (process.env.MCP_TEST_FAULTS === "1") {
  server.registerTool("crash", { description: "Exits in the middle of the call", annotations: { readOnlyHint: true } }, async () => process.exit(3));
  server.registerTool("hang", { description: "Never answers", annotations: { readOnlyHint: true } }, () => new Promise(() => undefined));
  server.registerTool("garbage", { description: "Prints lines that are not the protocol, then answers", annotations: { readOnlyHint: true } }, async () => {
    process.stdout.write("this is not JSON-RPC\n{\"broken\": \n\u0000\u0001 binary noise\n");
    return text("answered after the noise");
  });
  server.registerTool("big", { description: "Answers 100,000 characters", annotations: { readOnlyHint: true } }, async () => text("x".repeat(100_000)));
}

await server.connect(new StdioServerTransport());
