// Runs in a worker thread (wal-checkpointer.ts starts it): its own connection copies the WAL into the database
// file every interval, until the server asks it to stop.
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";

export interface CheckpointThreadData {
  file: string;
  intervalMs: number;
}

const { file, intervalMs } = workerData as CheckpointThreadData;
const db = new Database(file, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // locked by a writer's restart: next round
  }
}, intervalMs);
parentPort!.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
