/**
 * A small stdio MCP server for tests, built with the official SDK: `read_note` (read-only), `write_note`
 * (writes a file in NOTES_DIR, replacing one: destructive) and `add_note` (adds one, never replaces: not destructive). With MCP_TEST_FAULTS=1 it also offers `crash` (the process exits mid-call),
 * `hang` (never answers), `garbage` (prints non-protocol lines on stdout, then answers) and `big` (a very long answer);
 * with MCP_TEST_SCHEMAS=1, tools with input schemas Gemini cannot take as they are (below). Plain JavaScript, so it
 * starts without a loader.
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
  {
    description: "Write a note (replaces one with the same name)",
    inputSchema: { name: z.string(), text: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
  async ({ name, text: body }) => {
    mkdirSync(notesDir, { recursive: true });
    writeFileSync(noteFile(name), body);
    return text(`Saved note ${name}`);
  },
);

server.registerTool(
  "add_note",
  {
    description: "Add a note (never replaces one)",
    inputSchema: { name: z.string(), text: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  async ({ name, text: body }) => {
    if (existsSync(noteFile(name))) return { ...text(`A note named ${name} already exists`), isError: true };
    mkdirSync(notesDir, { recursive: true });
    writeFileSync(noteFile(name), body);
    return text(`Added note ${name}`);
  },
);

if (process.env.MCP_TEST_FAULTS === "1") {
  server.registerTool("crash", { description: "Exits in the middle of the call", annotations: { readOnlyHint: true } }, async () => process.exit(3));
  server.registerTool("hang", { description: "Never answers", annotations: { readOnlyHint: true } }, () => new Promise(() => undefined));
  server.registerTool("garbage", { description: "Prints lines that are not the protocol, then answers", annotations: { readOnlyHint: true } }, async () => {
    process.stdout.write('this is not JSON-RPC\n{"broken": \n\u0000\u0001 binary noise\n');
    return text("answered after the noise");
  });
  server.registerTool("big", { description: "Answers 100,000 characters", annotations: { readOnlyHint: true } }, async () => text("x".repeat(100_000)));
}

// With MCP_TEST_SCHEMAS=1, tools whose input schemas use what Gemini's subset lacks, as real servers write them:
// `plan_meeting` ($ref, allOf, oneOf, anyOf, a free-form map; it answers the arguments it got, as JSON) and
// `outline` (a schema that refers to itself). zod's `.meta()` writes the JSON Schema keywords as they are.
if (process.env.MCP_TEST_SCHEMAS === "1") {
  const raw = (schema) => z.any().optional().meta(schema);
  const person = { type: "object", properties: { name: { type: "string" }, email: { type: "string", format: "email" } }, required: ["name"] };
  server.registerTool(
    "plan_meeting",
    {
      description: "Plan a meeting",
      inputSchema: z
        .object({
          organizer: raw({ $ref: "#/$defs/person" }),
          attendees: raw({ type: "array", items: { $ref: "#/$defs/person" } }),
          when: raw({
            oneOf: [
              { type: "string", format: "date-time" },
              { type: "object", properties: { day: { type: "string", format: "date" } }, required: ["day"] },
            ],
          }),
          room: raw({
            allOf: [
              { type: "object", properties: { building: { type: "string" } } },
              { properties: { floor: { type: "integer", minimum: 0 } }, required: ["floor"] },
            ],
          }),
          length: raw({ anyOf: [{ type: "integer", exclusiveMinimum: 0 }, { type: "null" }], description: "Minutes" }),
          labels: raw({ type: "object", additionalProperties: { type: "string" } }),
        })
        .meta({ $defs: { person }, required: ["organizer", "when"] }),
      annotations: { readOnlyHint: true },
    },
    async (args) => text(JSON.stringify(args)),
  );
  const node = { type: "object", properties: { title: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } } };
  server.registerTool(
    "outline",
    {
      description: "Write an outline",
      inputSchema: z.object({ root: raw({ $ref: "#/$defs/node" }) }).meta({ $defs: { node } }),
      annotations: { readOnlyHint: true },
    },
    async () => text("outlined"),
  );
}

await server.connect(new StdioServerTransport());
