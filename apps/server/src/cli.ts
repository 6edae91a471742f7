import { createInterface } from "node:readline";
import { loadConfig } from "./config.ts";
import { createAuthRepo } from "./modules/auth/auth.repo.ts";
import { createAuthService, type AuthService } from "./modules/auth/auth.service.ts";
import { hasherFor } from "./modules/auth/password.ts";
import { openStore } from "./store/open-store.ts";

const USAGE = `Usage: sage-admin add-user <username> <password>
       sage-admin add-users < accounts.txt     (one "username password" per line)
  Adds accounts to the store in SAGE_DATA_DIR (default ./data). Each account sees only its own data.`;

const SHORT_PASSWORD = "The password must be at least 8 characters.";

/** One account per line, "username password" (the password may contain spaces); blank lines are skipped. */
async function* accountLines(): AsyncGenerator<{ line: number; username: string; password: string }> {
  let line = 0;
  for await (const text of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    line += 1;
    const trimmed = text.trim();
    if (!trimmed) continue;
    const space = trimmed.search(/\s/);
    yield { line, username: space < 0 ? trimmed : trimmed.slice(0, space), password: space < 0 ? "" : trimmed.slice(space).trim() };
  }
}

async function withAuth(run: (auth: AuthService) => Promise<number>) {
  const config = loadConfig();
  const store = openStore({ dataDir: config.dataDir, uploadsDir: config.files.dir });
  try {
    return await run(createAuthService({ repo: createAuthRepo(store.db), hasher: hasherFor(config.passwordCost), sessionDays: config.sessionDays }));
  } finally {
    await store.close();
  }
}

async function addUser(auth: AuthService, username: string, password: string) {
  const user = await auth.createUser(username.trim(), password);
  console.log(JSON.stringify(user));
}

/**
 * Administration from the command line: `node apps/server/dist/cli.js add-user alice 'long password'`, or
 * `add-users` for a team (one process and one store opening for all of them). A line that fails is reported with
 * its number and the others are still added; the exit code is 1 if any failed.
 */
async function main(args: string[]) {
  const [command, username, password] = args;
  if (command === "add-users" && args.length === 1) {
    return withAuth(async (auth) => {
      let failed = 0;
      for await (const account of accountLines()) {
        try {
          if (account.password.length < 8) throw new Error(SHORT_PASSWORD);
          await addUser(auth, account.username, account.password);
        } catch (error) {
          failed += 1;
          console.error(`Line ${account.line}: ${(error as Error).message}`);
        }
      }
      return failed ? 1 : 0;
    });
  }
  if (command !== "add-user" || !username || !password) {
    console.error(USAGE);
    return 2;
  }
  if (password.length < 8) {
    console.error(SHORT_PASSWORD);
    return 2;
  }
  return withAuth(async (auth) => {
    try {
      await addUser(auth, username, password);
      return 0;
    } catch (error) {
      console.error((error as Error).message);
      return 1;
    }
  });
}

process.exitCode = await main(process.argv.slice(2));
