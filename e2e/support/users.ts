import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { e2eDataDir } from "./data-dir.mjs";
import { E2E_PORT } from "./ports.ts";

const CLI = fileURLToPath(new URL("../../apps/server/dist/cli.js", import.meta.url));
type Account = { username: string; password: string; id: number };

/**
 * Adds accounts through the admin CLI's `add-users`, one process for several: each account's promise settles as
 * the CLI prints its line, so the first test need not wait for the whole batch.
 */
function addAccounts(prefix: string, count: number): Promise<Account>[] {
  const wanted = Array.from({ length: count }, () => ({
    username: `${prefix}-${randomBytes(5).toString("hex")}`,
    password: `pw-${randomBytes(8).toString("hex")}`,
  }));
  const settles = wanted.map(() => {
    let resolve!: (account: Account) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<Account>((yes, no) => ((resolve = yes), (reject = no)));
    // A batch that fails rejects accounts no test has asked for yet: not an unhandled rejection.
    promise.catch(() => undefined);
    return { promise, resolve, reject };
  });
  const cli = spawn(process.execPath, [CLI, "add-users"], {
    env: { ...process.env, SAGE_DATA_DIR: e2eDataDir(E2E_PORT), SAGE_LOG_LEVEL: "silent", SAGE_PASSWORD_COST: "minimum" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  cli.stderr.on("data", (chunk) => (stderr += chunk));
  let printed = 0;
  createInterface({ input: cli.stdout }).on("line", (line) => {
    const index = printed++;
    const { id } = JSON.parse(line) as { id: number };
    settles[index]?.resolve({ ...wanted[index]!, id });
  });
  cli.on("close", (code) => settles.slice(printed).forEach(({ reject }) => reject(new Error(`add-users exited ${code}: ${stderr}`))));
  cli.stdin.end(wanted.map(({ username, password }) => `${username} ${password}\n`).join(""));
  return settles.map(({ promise }) => promise);
}

const BATCH = 6;
const pool: Promise<Account>[] = [];

/** A brand-new account on this worker's e2e server, so each test starts from empty data. */
export async function createUser(prefix = "e2e"): Promise<Account> {
  if (prefix !== "e2e") return addAccounts(prefix, 1)[0]!;
  if (pool.length === 0) pool.push(...addAccounts(prefix, BATCH));
  return pool.shift()!;
}
