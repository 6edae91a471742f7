import { startThread } from "../../entry-point.ts";
import { AppError } from "../../http/app-error.ts";
import type { WriteJob } from "./write-job.ts";

/** The longest one document may take to write; the largest allowed text took about 19 s on a loaded two-core machine. */
const WRITE_TIMEOUT_MS = 120_000;
/** Memory one writer may use (a 200 KB text's deck needed about 300 MB). */
const WRITER_MEMORY_MB = 1024;

export const TOO_LONG_TO_WRITE = "The document took too long to write. Try a shorter text.";

/**
 * Reads and writes a document in a worker thread of its own, so the server's event loop keeps answering while it works
 * (measured in decision 042: 0.1-0.4 s for a typical text, 13-19 s for the largest allowed).
 */
export function writeDocumentInThread(job: WriteJob, timeoutMs = WRITE_TIMEOUT_MS): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const thread = startThread(new URL("./document-writer.entry.ts", import.meta.url), {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: WRITER_MEMORY_MB },
    });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const timer = setTimeout(() => {
      settle(() => reject(new AppError("document_too_slow", 503, TOO_LONG_TO_WRITE)));
      void thread.terminate();
    }, timeoutMs);
    thread.once("message", (bytes: Uint8Array) => settle(() => resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))));
    thread.once("error", (error) => settle(() => reject(error)));
    thread.once("exit", (code) => settle(() => reject(new Error(`the document writer stopped (exit code ${code})`))));
  });
}
