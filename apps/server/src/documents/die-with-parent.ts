import { rmSync } from "node:fs";
import { startThread } from "../entry-point.ts";
import type { ParentWatch } from "./parent-watch.entry.ts";

/** How often a reader process checks that its parent is still there. */
const PARENT_CHECK_MS = 250;

/**
 * Ends this process when its parent ends, however that happens (a SIGKILLed server, a conversion process killed for
 * its time or memory): at once when the IPC channel closes, and within PARENT_CHECK_MS from a watching thread when
 * the main thread is too busy to notice. Linux's PR_SET_PDEATHSIG is not available to Node. `removeOnDeath` goes
 * either way: on the exit, or from the watching thread before it ends the process.
 */
export function dieWithParent(options: { removeOnDeath?: string } = {}): void {
  const { removeOnDeath } = options;
  // A folder the parent would have removed once this process ended, had it outlived it.
  if (removeOnDeath) process.on("exit", () => rmSync(removeOnDeath, { recursive: true, force: true }));
  process.on("disconnect", () => process.exit(0));
  const watch: ParentWatch = { parentPid: process.ppid, everyMs: PARENT_CHECK_MS, removeOnDeath };
  const thread = startThread(new URL("./parent-watch.entry.ts", import.meta.url), {
    workerData: watch,
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  // It never keeps the process alive on its own.
  thread.unref();
}
