import { Worker, type Transferable } from "node:worker_threads";
import { ConversionError } from "../extracted-document.ts";

export interface WorkerScriptOptions {
  /** Shown in errors: "The spreadsheet could not be read: ...". */
  what: string;
  workerData: unknown;
  transferList?: Transferable[];
  timeoutMs?: number;
  maxHeapMb?: number;
}

/**
 * Runs a parser given as plain JavaScript source in a worker thread and resolves with the one value it posts as
 * `{ result }` (or rejects with its `{ error }`). Big files then parse without stalling the event loop, a parser
 * that loops or balloons is stopped by the time limit or the heap limit, and its memory is returned on exit.
 */
export async function runWorkerScript<T>(source: string, options: WorkerScriptOptions): Promise<T> {
  const worker = new Worker(source, {
    eval: true,
    workerData: options.workerData,
    transferList: options.transferList,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
  });
  const failed = (message: string) => new ConversionError(`${options.what} could not be read: ${message}`);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => reject(failed(`it took longer than ${Math.round((options.timeoutMs ?? 120_000) / 1000)} s`)), options.timeoutMs ?? 120_000);
      worker.on("message", (message: { result?: T; error?: string }) => (message.error !== undefined ? reject(failed(message.error)) : resolve(message.result as T)));
      worker.on("error", (error) => reject(failed(error.message)));
      worker.on("exit", (code) => reject(failed(`the reader stopped unexpectedly (exit code ${code})`)));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
