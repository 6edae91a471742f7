// Playwright webServer entry: the built SAGE server over a fresh temporary data dir.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

process.env.SAGE_DATA_DIR = mkdtempSync(path.join(tmpdir(), "sage-e2e-"));
console.log(`e2e data dir: ${process.env.SAGE_DATA_DIR}`);
await import("../../apps/server/dist/main.js");
