// Playwright webServer entry: the built SAGE server over a fresh data dir that tests can find by port
// (e2e/support/users.ts adds accounts to it with the admin CLI).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { e2eDataDir } from "./data-dir.mjs";

process.env.SAGE_DATA_DIR = e2eDataDir(process.env.PORT);
rmSync(process.env.SAGE_DATA_DIR, { recursive: true, force: true });
// External tools: the testkit's notes server (with its tools whose schemas Gemini cannot take as they are), and an
// entry with no program (Settings shows its error).
mkdirSync(process.env.SAGE_DATA_DIR, { recursive: true });
const notesServer = fileURLToPath(new URL("../../packages/testkit/src/mcp-test-server.mjs", import.meta.url));
const notesDir = path.join(process.env.SAGE_DATA_DIR, "notes");
writeFileSync(
  path.join(process.env.SAGE_DATA_DIR, "mcp.json"),
  JSON.stringify({
    mcpServers: {
      broken: { args: ["--no-command"] },
      notes: { command: process.execPath, args: [notesServer], env: { NOTES_DIR: notesDir, MCP_TEST_SCHEMAS: "1" } },
    },
  }),
);
console.log(`e2e data dir: ${process.env.SAGE_DATA_DIR}`);
await import("../../apps/server/dist/main.js");
