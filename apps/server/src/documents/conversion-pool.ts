import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { conversionEnv } from "../config.ts";
import { forkEntry } from "../entry-point.ts";
import type { Chunk } from "./chunker.ts";
import { decodeChunks } from "./chunk-wire.ts";
import type { BatchResult, ConversionExtras, ConversionReply, ConversionRequest } from "./conversion-process.entry.ts";
import type { ConversionInput } from "./convert-input.ts";
import type { MailLimits } from "./converters/mail-message.ts";
import { ConversionError } from "./extracted-document.ts";
import { tooLargeToProcess } from "./zip-expansion.ts";
import { runInBackground } from "./background-priority.ts";

/** A limit as people read it: whole seconds, or a fraction below one second (tests use short limits). */
const seconds = (ms: number) => (ms >= 1000 ? String(Math.round(ms / 1000)) : String(Number((ms / 1000).toFixed(2))));
/** A longer limit as people read it: hours from two hours up, minutes from two minutes up, else seconds. */
const duration = (ms: number) =>
  ms >= 7_200_000 ? `${Number((ms / 3_600_000).toFixed(1))} hours` : ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${seconds(ms)} s`;

/** Why a conversion process was killed: the pool knows, the process's exit does not say. */
type KillReason = "memory" | "time" | "total" | "cancelled";

/** The reason a document fails with when its item no longer wants it (deleted while being read). */
export const CANCELLED_REASON = "Reading the document was stopped: it is no longer needed";

export interface ConversionPoolOptions {
  /** Conversions running at once, one process each. */
  size: number;
  /** Resident memory one conversion process may use; its JavaScript heap is capped at three quarters of it. */
  memoryMb: number;
  /** Longest one document may take; for a scan, longest between two pages read by text recognition. */
  timeoutMs: number;
  /** Longest one document may take in all, a long scan's pages included; its reader is then killed. */
  maxTotalMs?: number;
  /** Pages of a PDF that are read; a longer one is kept with those pages and says how many it had. */
  maxPages?: number;
  /** Attachments of one mail handed on (SAGE_MAIL_MAX_ATTACHMENTS) and the largest (the upload limit). */
  mail?: MailLimits;
  /** A zip-based document whose entries declare more than this is refused unopened. */
  maxExpandedBytes: number;
  /** A document yielding more text than this is refused (its chunks would flood the index). */
  maxTextBytes: number;
  /** A process with nothing to do exits after this long (all but one, with keepWarm). */
  idleMs: number;
  /**
   * Starts one process at once and keeps one while the pool is open, replacing it when it dies: starting one costs
   * 0.4-1.2 s, longer than reading a typical document. Off in tests, where many short-lived servers would each fork.
   */
  keepWarm?: boolean;
  /** Told each time a process's idle time ran out, and whether it was kept (keepWarm): tests wait for it, not a pause. */
  onIdleTimeout?: (kept: boolean) => void;
  /** The processes' environment (conversionEnv() of the server's own when absent). */
  env?: Record<string, string>;
}

/** A document's chunks, with what else its converter found (OCR pages, attachments: see ExtractedDocument). */
export interface ConvertedDocument extends ConversionExtras {
  chunks: Chunk[];
}

export interface ConversionPool {
  /**
   * Reads a document into chunks. With `onChunks`, each slice of chunks is handed over as it arrives (so storing
   * them can start while the rest is read) and the document resolves with `chunks` empty.
   */
  convert(input: ConversionInput, onChunks?: (chunks: Chunk[]) => void, signal?: AbortSignal): Promise<ConvertedDocument>;
  /**
   * Reads small documents one after another in one process and one round trip; answers each one's document, or the
   * error it alone failed with, in the order given. The time limit is per document. Rejects as a whole only when the
   * process dies (a memory or time limit, a crash), when the caller should read them one by one to learn which.
   */
  convertMany(inputs: ConversionInput[], signal?: AbortSignal): Promise<Array<ConvertedDocument | ConversionError>>;
  /** Ends every conversion process (the server is shutting down). */
  close(): Promise<void>;
  /** The process ids of the conversion processes running now (started, busy or idle). */
  processIds(): number[];
}

interface Slot {
  child: ChildProcess;
  /** It answered "ready" (one that dies before that is not replaced, so a broken install cannot fork in a loop). */
  ready: boolean;
  /** The end of its stderr, where V8 says why it died (heap limit). */
  stderr: string;
  exited: boolean;
  idleTimer?: NodeJS.Timeout;
}

const RSS_CHECK_MS = 100;
const DEFAULT_MAX_TOTAL_MS = 14_400_000;
const DEFAULT_MAX_PAGES = 5000;

/**
 * Kills a conversion process and everything it started (its PDF reader and OCR processes): each is started in a
 * process group of its own, so one signal reaches them all, however busy they are.
 */
function killGroup(child: ChildProcess) {
  try {
    if (child.pid) return process.kill(-child.pid, "SIGKILL");
  } catch {
    // the group is gone already, or groups are unsupported here
  }
  child.kill("SIGKILL");
}
const canReadRss = existsSync("/proc/self/status");

/** Resident memory of a process in MB, from /proc (Linux); elsewhere only the heap cap applies. */
function residentMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const withoutUndefined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/**
 * Untrusted documents are read in separate processes, never in the server: each conversion runs in a process with
 * a heap cap, a resident-memory watchdog and a time limit, and whatever goes wrong there (a zip bomb, a parser
 * looping or crashing) ends that process and fails that document with the reason, while the server carries on.
 * Processes are reused for the next document and exit when idle.
 */
export function createConversionPool(options: ConversionPoolOptions): ConversionPool {
  const slots = new Set<Slot>();
  const idle: Slot[] = [];
  const waiting: Array<{ resolve(slot: Slot): void; reject(error: Error): void }> = [];
  let nextId = 1;
  let closed = false;
  const maxTotalMs = options.maxTotalMs ?? DEFAULT_MAX_TOTAL_MS;

  function start(): Promise<Slot> {
    const heapMb = Math.max(64, Math.floor(options.memoryMb * 0.75));
    // A temp folder of its own, removed when it exits: a process killed at a limit (and the OCR and reader processes
    // that die with it) runs no clean-up of its own, and what it left would stay in the temp folder.
    const tempDir = mkdtempSync(path.join(tmpdir(), "sage-conversion-"));
    const removeTemp = () => rmSync(tempDir, { recursive: true, force: true });
    let child: ChildProcess;
    try {
      child = forkEntry(new URL("./conversion-process.entry.ts", import.meta.url), {
        execArgv: [`--max-old-space-size=${heapMb}`],
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        env: { ...(options.env ?? conversionEnv()), TMPDIR: tempDir },
        // A process group of its own, so killing it kills the readers it started too (killGroup).
        detached: true,
      });
    } catch (error) {
      removeTemp();
      // Its entry cannot be found or built (an incomplete install): the document fails saying so.
      return Promise.reject(new ConversionError(`The document reader could not start: ${(error as Error).message}`));
    }
    runInBackground(child.pid);
    const slot: Slot = { child, ready: false, stderr: "", exited: false };
    slots.add(slot);
    child.stderr!.on("data", (data: Buffer) => (slot.stderr = (slot.stderr + data.toString()).slice(-4000)));
    child.once("exit", () => {
      removeTemp();
      slot.exited = true;
      slots.delete(slot);
      clearTimeout(slot.idleTimer);
      const index = idle.indexOf(slot);
      if (index >= 0) idle.splice(index, 1);
      if (slot.ready && options.keepWarm && !closed && slots.size === 0) setImmediate(warmUp);
    });
    return new Promise((resolve, reject) => {
      const failed = (reason: string) => reject(new ConversionError(`The document reader could not start: ${reason}`));
      child.once("message", () => {
        slot.ready = true;
        resolve(slot);
      });
      child.once("error", (error) => failed(error.message));
      child.once("exit", (code, signal) => failed(`${signal ?? `exit code ${code}`} ${slot.stderr.trim().slice(-300)}`.trim()));
    });
  }

  /** Starts a process with nothing to do yet, unless one exists (keepWarm). */
  function warmUp() {
    if (closed || slots.size > 0) return;
    start().then(release, () => {
      // It could not start: the next document starts another and reports why.
    });
  }

  function acquire(): Promise<Slot> {
    if (closed) return Promise.reject(new ConversionError("The server is shutting down"));
    const ready = idle.pop();
    if (ready) {
      clearTimeout(ready.idleTimer);
      return Promise.resolve(ready);
    }
    if (slots.size < options.size) return start();
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  function release(slot: Slot) {
    const next = waiting.shift();
    if (next) {
      if (slot.exited) start().then(next.resolve, next.reject);
      else next.resolve(slot);
      return;
    }
    if (slot.exited || closed) return;
    idle.push(slot);
    // An idle process must not keep the server alive, nor its memory for long.
    slot.child.unref();
    slot.child.channel?.unref();
    slot.idleTimer = setTimeout(() => {
      if (options.keepWarm && slots.size <= 1) return options.onIdleTimeout?.(true);
      // Forgotten now, so two idle processes timing out together do not both count the other as the one kept.
      slots.delete(slot);
      idle.splice(idle.indexOf(slot), 1);
      slot.child.kill();
      options.onIdleTimeout?.(false);
    }, options.idleMs);
    slot.idleTimer.unref();
  }

  function exitError(code: number | null, signal: NodeJS.Signals | null, killedFor: KillReason | undefined, stderr: string): Error {
    if (killedFor === "cancelled") return new ConversionError(CANCELLED_REASON);
    if (killedFor === "total") return new ConversionError(`The document took too long to process (more than ${duration(maxTotalMs)} in all)`);
    if (killedFor === "time") return new ConversionError(`The document took too long to process (more than ${seconds(options.timeoutMs)} s)`);
    if (killedFor === "memory" || /heap out of memory|Reached heap limit|Allocation failed/i.test(stderr)) {
      return tooLargeToProcess(`reading it needed more than ${options.memoryMb} MB of memory`);
    }
    return new ConversionError(`The document could not be processed: its reader stopped unexpectedly (${signal ?? `exit code ${code}`})`);
  }

  /** One document's extras as the server keeps them (no empty fields). */
  const documentOf = (chunks: Chunk[], extras: ConversionExtras): ConvertedDocument => {
    const { notProcessedReason, ocrPages, ocrFailedPages, ocrUnclearPages, attachments, pagesNotRead, attachmentsNotRead } = extras;
    return withoutUndefined({
      chunks: notProcessedReason ? [] : chunks,
      notProcessedReason,
      ocrPages,
      ocrFailedPages,
      ocrUnclearPages,
      attachments,
      pagesNotRead,
      attachmentsNotRead,
    });
  };
  const batchDocument = (result: BatchResult): ConvertedDocument | ConversionError => {
    if (result.type === "error") return new ConversionError(result.message, result.detail);
    const { type: _type, bytes, ...extras } = result;
    return documentOf(decodeChunks(bytes), extras);
  };

  function run(slot: Slot, body: { input: ConversionInput }, onChunks?: (chunks: Chunk[]) => void, signal?: AbortSignal): Promise<ConvertedDocument>;
  function run(slot: Slot, body: { batch: ConversionInput[] }, onChunks?: undefined, signal?: AbortSignal): Promise<Array<ConvertedDocument | ConversionError>>;
  function run(
    slot: Slot,
    body: { input: ConversionInput } | { batch: ConversionInput[] },
    onChunks?: (chunks: Chunk[]) => void,
    signal?: AbortSignal,
  ): Promise<ConvertedDocument | Array<ConvertedDocument | ConversionError>> {
    const { child } = slot;
    const id = nextId++;
    const chunks: Chunk[] = [];
    let killedFor: KillReason | undefined;
    let garbled: string | undefined;
    return new Promise((resolve, reject) => {
      const kill = (reason: KillReason) => {
        killedFor ??= reason;
        killGroup(child);
      };
      const cancel = () => kill("cancelled");
      let timer = setTimeout(() => kill("time"), options.timeoutMs);
      // Never reset by progress: a 100,000-page scan moves page after page for days.
      const totalTimer = setTimeout(() => kill("total"), maxTotalMs);
      signal?.addEventListener("abort", cancel, { once: true });
      const watchdog = canReadRss && child.pid ? setInterval(() => residentMb(child.pid!) > options.memoryMb && kill("memory"), RSS_CHECK_MS) : undefined;
      const finish = () => {
        clearTimeout(timer);
        clearTimeout(totalTimer);
        signal?.removeEventListener("abort", cancel);
        clearInterval(watchdog);
        child.off("message", onMessage);
        child.off("exit", onExit);
      };
      const onMessage = (reply: ConversionReply) => {
        if (!("id" in reply) || reply.id !== id) return;
        if (reply.type === "chunks") {
          try {
            if (onChunks) onChunks(decodeChunks(reply.bytes));
            else for (const chunk of decodeChunks(reply.bytes)) chunks.push(chunk);
          } catch (error) {
            // A garbled reply: this process cannot be trusted with the next document either.
            garbled = (error as Error).message;
            killGroup(child);
          }
          return;
        }
        if (reply.type === "progress") {
          // A long scan reads page after page for many minutes: the limit is on time without progress.
          clearTimeout(timer);
          timer = setTimeout(() => kill("time"), options.timeoutMs);
          return;
        }
        if (reply.type === "batch-done") {
          let documents: Array<ConvertedDocument | ConversionError>;
          try {
            documents = reply.results.map(batchDocument);
          } catch (error) {
            garbled = (error as Error).message;
            return void killGroup(child);
          }
          finish();
          return resolve(documents);
        }
        finish();
        if (reply.type === "error") return reject(new ConversionError(reply.message, reply.detail));
        const { type: _type, id: _id, ...extras } = reply;
        resolve(documentOf(chunks, extras));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        finish();
        reject(garbled ? new ConversionError(`The document could not be processed: ${garbled}`) : exitError(code, signal, killedFor, slot.stderr));
      };
      child.on("message", onMessage);
      child.on("exit", onExit);
      child.ref();
      child.channel?.ref();
      const limits = {
        maxExpandedBytes: options.maxExpandedBytes,
        maxTextBytes: options.maxTextBytes,
        maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
        ...(options.mail ? { mail: options.mail } : {}),
      };
      const request: ConversionRequest = { id, limits, ...body };
      child.send(request);
    });
  }

  /** A process for the work, checking before and after the wait that it is still wanted, and released after. */
  async function withSlot<T>(signal: AbortSignal | undefined, work: (slot: Slot) => Promise<T>): Promise<T> {
    if (signal?.aborted) throw new ConversionError(CANCELLED_REASON);
    const slot = await acquire();
    try {
      if (signal?.aborted) throw new ConversionError(CANCELLED_REASON);
      return await work(slot);
    } finally {
      release(slot);
    }
  }

  if (options.keepWarm) warmUp();

  return {
    async convert(input, onChunks, signal) {
      return withSlot(signal, (slot) => run(slot, { input }, onChunks, signal));
    },

    async convertMany(inputs, signal) {
      if (inputs.length === 0) return [];
      return withSlot(signal, (slot) => run(slot, { batch: inputs }, undefined, signal));
    },

    processIds: () => [...slots].flatMap((slot) => (slot.child.pid ? [slot.child.pid] : [])),

    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter.reject(new ConversionError("The server is shutting down"));
      await Promise.all(
        [...slots].map(
          (slot) =>
            new Promise<void>((resolve) => {
              if (slot.exited) return resolve();
              slot.child.once("exit", () => resolve());
              // An idle process is unref'd: waiting on its exit alone, the server would end first, before this
              // process's temp folder is removed and before the rest of its own shutdown.
              slot.child.ref();
              killGroup(slot.child);
            }),
        ),
      );
    },
  };
}
