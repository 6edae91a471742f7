import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");

/** An mcp.json entry that starts the testkit's stdio MCP server (mcp-test-server.mjs). */
export function mcpTestServerEntry(options: { notesDir: string; faults?: boolean; schemas?: boolean }) {
  return {
    command: process.execPath,
    args: [path.join(here, "mcp-test-server.mjs")],
    env: { NOTES_DIR: options.notesDir, ...(options.faults ? { MCP_TEST_FAULTS: "1" } : {}), ...(options.schemas ? { MCP_TEST_SCHEMAS: "1" } : {}) },
    cwd: repoRoot,
  };
}
