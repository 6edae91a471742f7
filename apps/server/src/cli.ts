import { createInterface } from "node:readline";
import { loadConfig } from "./config.ts";
import { createAuthRepo } from "./modules/auth/auth.repo.ts";
import { createAuthService, type AuthService } from "./modules/auth/auth.service.ts";
import { hasherFor } from "./modules/auth/password.ts";
import { openAppStore } from "./store/open-app-store.ts";
import pg from "pg";
import { openPgLexicalIndex } from "./modules/retrieval/index/pg-lexical-index.ts";
import { copySqliteToPostgres, CopyError } from "./store/postgres/copy-to-postgres.ts";

const USAGE = `Usage: sage-admin add-user <username> <password>
       sage-admin add-users < accounts.txt     (one "username password" per line)
  Adds accounts to the store in SAGE_DATA_DIR (default ./data). Each account sees only its own data.
       sage-admin migrate --from <data folder> --to <postgres://...> [--files <folder>]
  Copies a SQLite installation (every table, and its stored files into --files or SAGE_FILES_DIR) into an empty
  PostgreSQL database, checking each table's count.`;

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
  // The server's own store: PostgreSQL when SAGE_DATABASE_URL is set, else SQLite in the data folder.
  const store = await openAppStore({ dataDir: config.dataDir, uploadsDir: config.files.dir, databaseUrl: config.databaseUrl });
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
/** `migrate --from <dir> --to <url> [--files <dir>]`: the copy's counts as it goes, then what to do next. */
async function migrate(args: string[]) {
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const from = option("from");
  const to = option("to");
  if (!from || !to || !/^postgres(ql)?:\/\//.test(to)) {
    console.error(USAGE);
    return 2;
  }
  const { files } = loadConfig();
  const filesDir = option("files") ?? (files.shared ? files.dir : undefined);
  try {
    const report = await copySqliteToPostgres({ dataDir: from, url: to, filesDir, onTable: (name, rows) => console.log(`${name}: ${rows} rows`) });
    console.log(`files: ${report.files.count} (${report.files.bytes} bytes) in ${report.files.dir}`);
    // PostgreSQL's lexical index is its own (decision 059): filled here, so search answers at the first start.
    const pool = new pg.Pool({ connectionString: to, max: 2 });
    try {
      console.log(`search index: ${await (await openPgLexicalIndex(pool)).indexMissing()} passages`);
    } finally {
      await pool.end();
    }
    console.log(`Copied. Keep the secret key with it (${from}/secret.key, or SAGE_SECRET_KEY): saved passwords and keys are encrypted with it.`);
    return 0;
  } catch (error) {
    console.error(error instanceof CopyError ? error.message : `The copy failed and was rolled back: ${(error as Error).message}`);
    return 1;
  }
}

async function main(args: string[]) {
  const [command, username, password] = args;
  if (command === "migrate") return migrate(args.slice(1));
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
