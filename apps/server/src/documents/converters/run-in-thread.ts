import type { Transferable, Worker } from "node:worker_threads";
import { startThread } from "../../entry-point.ts";
import { ConversionError } from "../extracted-document.ts";
import { readerFailure } from "./reader-failure.ts";

export interface ThreadOptions<Data> {
  /** Shown in errors: "The spreadsheet could not be read: ...". */
  what: string;
  workerData: Data;
  transferList?: Transferable[];
  timeoutMs?: number;
  maxHeapMb?: number;
}

/** What a reader thread posts back once (see replyToParent). */
export type ThreadReply<Result> = { result: Result; error?: undefined } | { error: string };

/**
 * Runs a parser in a worker thread on its entry (`<name>.entry.ts`, which answers through replyToParent) and
 * resolves with the one value it posts as `{ result }` (or rejects with its `{ error }`). Big files then parse
 * without stalling the event loop, a parser that loops or balloons is stopped by the time limit or the heap limit,
 * and its memory is returned on exit.
 */
export async function runInThread<Data, Result>(entry: URL, options: ThreadOptions<Data>): Promise<Result> {
  const failed = (message: string) => new ConversionError(`${options.what} could not be read: ${message}`);
  let worker: Worker;
  try {
    worker = startThread(entry, {
      workerData: options.workerData,
      transferList: options.transferList,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
    });
  } catch (error) {
    throw failed((error as Error).message);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<Result>((resolve, reject) => {
      timer = setTimeout(() => reject(failed(`it took longer than ${Math.round((options.timeoutMs ?? 120_000) / 1000)} s`)), options.timeoutMs ?? 120_000);
      // The parser's own message names its internals, never shown; the time and exit reasons above are ours.
      worker.on("message", (message: ThreadReply<Result>) =>
        message.error !== undefined ? reject(readerFailure(options.what, message.error)) : resolve(message.result),
      );
      worker.on("error", (error) =>
        reject(
          (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY"
            ? failed("it needs more memory than one document may use")
            : readerFailure(options.what, error),
        ),
      );
      worker.on("exit", (code) => reject(failed(`the reader stopped unexpectedly (exit code ${code})`)));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
