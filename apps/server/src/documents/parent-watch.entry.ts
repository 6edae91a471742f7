// A thread in each document-reading process (die-with-parent.ts starts it) that ends the process once its parent is
// gone. It runs beside the main thread, so a parser busy for minutes in one synchronous call, which never reaches
// the event loop where the IPC channel's "disconnect" would be heard, still dies with the server.
import { rmSync } from "node:fs";
import { workerData } from "node:worker_threads";

export interface ParentWatch {
  /** The parent's pid when the process started. */
  parentPid: number;
  everyMs: number;
  /** Removed before the process is ended (SIGKILL runs no exit hook). */
  removeOnDeath?: string;
}

const { parentPid, everyMs, removeOnDeath } = workerData as ParentWatch;
// An orphan is adopted by init (or a subreaper), so its parent pid changes; SIGKILL from a thread ends every thread.
setInterval(() => {
  if (process.ppid === parentPid) return;
  if (removeOnDeath) rmSync(removeOnDeath, { recursive: true, force: true });
  process.kill(process.pid, "SIGKILL");
}, everyMs);
