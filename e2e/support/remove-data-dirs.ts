import { rmSync } from "node:fs";
import { e2eDataDir } from "./data-dir.mjs";
import { workerPorts } from "./ports.ts";

/**
 * Playwright's global teardown: each worker's SAGE data dir goes with the run. They live in the RAM disk when there
 * is one (packages/testkit/src/ram-temp.ts), where every run's would otherwise stay until the machine restarts.
 */
export default function removeDataDirs(): void {
  const workers = Number(process.env.SAGE_E2E_WORKERS ?? 2);
  for (let worker = 0; worker < workers; worker++) rmSync(e2eDataDir(workerPorts(worker).sage), { recursive: true, force: true });
}
