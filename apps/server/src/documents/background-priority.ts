import { getPriority, setPriority } from "node:os";

/** How far below the server the processes that read documents and run OCR run, in niceness: on a small machine
 * the CPU goes first to answering requests, and documents are read with what is left. */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers a helper process to background priority. Threads the process starts later (pdf.js worker threads, the
 * thread pool) inherit it from its main thread. Failing to lower it (a platform without priorities) changes
 * nothing else.
 */
export function runInBackground(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + BACKGROUND_NICENESS));
  } catch {
    // priorities unsupported here: the process runs at the server's
  }
}
