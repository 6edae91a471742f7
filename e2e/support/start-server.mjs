// Playwright webServer entry: the built SAGE server over a fresh data dir that tests can find by port
// (e2e/support/users.ts adds accounts to it with the admin CLI).
import { rmSync } from "node:fs";
import { e2eDataDir } from "./data-dir.mjs";

process.env.SAGE_DATA_DIR = e2eDataDir(process.env.PORT);
rmSync(process.env.SAGE_DATA_DIR, { recursive: true, force: true });
console.log(`e2e data dir: ${process.env.SAGE_DATA_DIR}`);
await import("../../apps/server/dist/main.js");
