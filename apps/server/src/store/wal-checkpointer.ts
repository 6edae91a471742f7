import { startThread } from "../entry-point.ts";
import type { CheckpointThreadData } from "./wal-checkpoint-thread.entry.ts";

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/**
 * Copies the WAL into the database file from a worker thread with its own connection. A checkpoint fsyncs the
 * WAL and the database file; on the server's only connection that blocked every request for 20-100 ms each
 * time 4 MB of writes had piled up (an 8 MB upload paid it about ten times). PASSIVE never waits for, nor
 * blocks, the main connection's readers and writers.
 */
export function startWalCheckpointer(file: string, options: { intervalMs?: number } = {}): WalCheckpointer {
  const workerData: CheckpointThreadData = { file, intervalMs: options.intervalMs ?? 200 };
  const worker = startThread(new URL("./wal-checkpoint-thread.entry.ts", import.meta.url), { workerData });
  worker.unref();
  // A failed checkpointer only means the main connection's own (rarer) autocheckpoint does the work.
  worker.on("error", () => undefined);
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async stop() {
      worker.postMessage("stop");
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
