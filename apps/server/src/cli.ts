import { loadConfig } from "./config.ts";
import { createAuthRepo } from "./modules/auth/auth.repo.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { productionHasher } from "./modules/auth/password.ts";
import { openStore } from "./store/open-store.ts";

const USAGE = `Usage: sage-admin add-user <username> <password>
  Adds an account to the store in SAGE_DATA_DIR (default ./data). Each account sees only its own data.`;

/** Administration from the command line: `node apps/server/dist/cli.js add-user alice 'long password'`. */
async function main(args: string[]) {
  const [command, username, password] = args;
  if (command !== "add-user" || !username || !password) {
    console.error(USAGE);
    return 2;
  }
  if (password.length < 8) {
    console.error("The password must be at least 8 characters.");
    return 2;
  }
  const config = loadConfig();
  const store = openStore({ dataDir: config.dataDir });
  try {
    const auth = createAuthService({ repo: createAuthRepo(store.db), hasher: productionHasher, sessionDays: config.sessionDays });
    const user = await auth.createUser(username.trim(), password);
    console.log(JSON.stringify(user));
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
