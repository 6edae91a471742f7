import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * Copies the WAL into the database file from a worker thread with its own connection. A checkpoint fsyncs the
 * WAL and the database file; on the server's only connection that blocked every request for 20-100 ms each
 * time 4 MB of writes had piled up (an 8 MB upload paid it about ten times). PASSIVE never waits for, nor
 * blocks, the main connection's readers and writers.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
const timer = setInterval(() => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch { /* locked by a writer's restart: next round */ }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

export function startWalCheckpointer(file: string, options: { intervalMs?: number } = {}): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs: options.intervalMs ?? 200 } });
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
