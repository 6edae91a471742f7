import { parentPort, workerData } from "node:worker_threads";
import type { ThreadReply } from "./run-in-thread.ts";

/** A reader thread's whole life: one piece of work on its workerData, its result or error posted back (runInThread). */
export function replyToParent<Data, Result>(work: (data: Data) => Result | Promise<Result>): void {
  const post = (reply: ThreadReply<Result>) => parentPort!.postMessage(reply);
  (async () => work(workerData as Data))().then(
    (result) => post({ result }),
    (error: unknown) => post({ error: String((error as Error | undefined)?.message || error) }),
  );
}
