import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { e2eDataDir } from "./data-dir.mjs";
import { E2E_PORT } from "./ports.ts";

const CLI = fileURLToPath(new URL("../../apps/server/dist/cli.js", import.meta.url));

/** A brand-new account on the e2e server (through the admin CLI), so each test starts from empty data. */
export async function createUser(prefix = "e2e"): Promise<{ username: string; password: string; id: number }> {
  const username = `${prefix}-${randomBytes(5).toString("hex")}`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, "add-user", username, password], {
    env: { ...process.env, SAGE_DATA_DIR: e2eDataDir(E2E_PORT), SAGE_LOG_LEVEL: "silent" },
  });
  return { username, password, id: JSON.parse(stdout).id };
}
