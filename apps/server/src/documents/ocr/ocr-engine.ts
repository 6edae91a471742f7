import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadOcrConfig } from "../../config.ts";
import { forkEntry } from "../../entry-point.ts";
import { runInBackground } from "../background-priority.ts";
import { osdFile, resolveOcrLanguages } from "./ocr-languages.ts";
import type { GrayImage, OcrProcessData, OcrReply, OcrRequest } from "./ocr-protocol.ts";

export interface OcrLimits {
  /** A page that takes longer is given up: the OCR process is ended (freeing its memory) and replaced. */
  pageTimeoutMs: number;
  /** Pages are rendered, and images scaled, to at most this many pixels; this bounds the recogniser's memory. */
  maxPixels: number;
  /** The OCR process is ended when its resident memory passes this (checked while a page is read). */
  maxProcessMb: number;
  /** WebAssembly memory only grows, so the process is replaced after this many pages. */
  pagesPerProcess: number;
  /** An idle process is ended after this long, returning its memory. */
  idleMs: number;
}

/** 4.5 million pixels is A4 at about 210 dpi: 10 pt text reads as well as at 300 dpi, in less memory. */
/** 10 pages a process: its memory grew from about 215 to 270 MB over 50 pages; a new one costs 1-2 s. */
export const OCR_LIMITS: OcrLimits = { pageTimeoutMs: 120_000, maxPixels: 4_500_000, maxProcessMb: 700, pagesPerProcess: 10, idleMs: 15_000 };
/** Pages are rendered at this resolution when it fits the pixel budget. */
export const OCR_DPI = 300;

export class OcrError extends Error {}

/** A PDF's bytes, or the path of a stored upload (read where it is needed, never held by the caller). */
export type PdfSource = Uint8Array | { path: string };

/**
 * Below this mean word confidence a page's recognised text is not kept: it is what Tesseract gives for a script it
 * has no data for (Hebrew read as Latin: 20-45), a sheet scanned askew or blurred; clean print reads 85-96
 * (decision 034). The page is reported as unclear instead.
 */
export const MIN_OCR_CONFIDENCE = 60;

/** What text recognition read on one page, with its mean word confidence (0-100). */
export interface RecognizedText {
  text: string;
  confidence: number;
}

/** The packaged English data's folder, for the benchmarks that start tesseract.js themselves. */
export const OCR_LANGUAGE_PATH = path.dirname(resolveOcrLanguages(["eng"])[0]!.file);

/**
 * The configured languages' data (packaged, or SAGE_OCR_DATA_DIR's) and the orientation data, never downloaded, as
 * the one folder tesseract.js reads: links named <code>.traineddata.gz, wherever each file lives. Made here and
 * removed when the process exits, since the process itself is ended with SIGKILL (idle, every few pages, at a
 * limit) and runs no exit hook: each one's folder was left in the temp folder.
 */
function processData(): OcrProcessData {
  const { languages, dataDir } = loadOcrConfig();
  const resolved = resolveOcrLanguages(languages, dataDir);
  const languageFolder = mkdtempSync(path.join(tmpdir(), "sage-ocr-"));
  try {
    for (const { code, file } of [...resolved, { code: "osd", file: osdFile() }]) symlinkSync(file, path.join(languageFolder, `${code}.traineddata.gz`));
  } catch (error) {
    rmSync(languageFolder, { recursive: true, force: true });
    throw error;
  }
  return { languages: resolved, languageFolder };
}

let child: ChildProcess | null = null;
/** Bumped whenever a process ends, so PDF sessions know to open their document again. */
let generation = 0;
let pagesOnProcess = 0;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();
/** Requests waiting for a reply, each with the process it was sent to. */
const waiting = new Map<number, { target: ChildProcess; resolve(reply: OcrReply): void; reject(error: Error): void }>();

/** Young-generation spaces of 2 MB (16 MB by default, three of them): the process makes little garbage in
 * JavaScript, and the smaller spaces kept it 12 MB lower at its peak with no page read slower. */
function startProcess(): ChildProcess {
  const data = processData();
  const removeFolder = () => rmSync(data.languageFolder, { recursive: true, force: true });
  let started: ChildProcess;
  try {
    started = forkEntry(new URL("./ocr-process.entry.ts", import.meta.url), {
      args: [JSON.stringify(data)],
      execArgv: ["--max-old-space-size=256", "--max-semi-space-size=2", "--expose-gc"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
  } catch (error) {
    removeFolder();
    throw error;
  }
  runInBackground(started.pid);
  started.on("message", (reply: OcrReply) => {
    const request = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error !== undefined) request?.reject(new OcrError(`Text recognition failed: ${reply.error}`));
    else request?.resolve(reply);
  });
  started.on("exit", () => {
    removeFolder();
    if (child === started) child = null;
    generation++;
    pagesOnProcess = 0;
    // Only this process's requests: a process killed at a limit may report its exit after the next one took work.
    for (const [id, request] of waiting) {
      if (request.target !== started) continue;
      waiting.delete(id);
      request.reject(new OcrError("The text recognition process stopped"));
    }
  });
  return started;
}

function residentMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0; // Not Linux: no memory watch, the time limit still holds.
  }
}

async function stopProcess(): Promise<void> {
  const stopping = child;
  child = null;
  if (!stopping || stopping.exitCode !== null) return;
  const exited = new Promise((resolve) => stopping.once("exit", resolve));
  // An idle process is unref'd: the wait for its exit must hold the event loop, or a shutdown ends before it.
  stopping.ref();
  stopping.kill("SIGKILL");
  await exited;
}

/** An idle OCR process must not keep the server (or a script, or a test run) from exiting. */
function holdOpen(target: ChildProcess, hold: boolean): void {
  const channel = target.channel as { ref(): void; unref(): void } | null | undefined;
  if (hold) {
    target.ref();
    channel?.ref();
  } else {
    target.unref();
    channel?.unref();
  }
}

function ask(target: ChildProcess, message: OcrRequest): Promise<OcrReply> {
  return new Promise<OcrReply>((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { target, resolve, reject });
    target.send({ id, ...message });
  });
}

/**
 * One request to the OCR process, queued behind all others: one page at a time in the whole server. Past the time
 * or memory limit the process is killed, which ends the request (and frees everything it held).
 */
function send(message: OcrRequest, limits: OcrLimits, prepare?: (process: ChildProcess) => Promise<void>): Promise<OcrReply> {
  const run = queue.then(async () => {
    clearTimeout(idleTimer);
    const current = (child ??= startProcess());
    let timer: NodeJS.Timeout | undefined;
    let watch: NodeJS.Timeout | undefined;
    const limitHit = new Promise<never>((_, reject) => {
      const fail = (reason: string) => {
        reject(new OcrError(reason));
        void stopProcess();
      };
      timer = setTimeout(() => fail(`Text recognition took longer than ${Math.round(limits.pageTimeoutMs / 1000)} s`), limits.pageTimeoutMs);
      const checkMemory = () => {
        if (residentMb(current.pid) > limits.maxProcessMb) fail(`Text recognition used more than ${limits.maxProcessMb} MB`);
      };
      // Checked at once as well: a page read faster than one interval would otherwise never be measured.
      checkMemory();
      watch = setInterval(checkMemory, 250);
    });
    holdOpen(current, true);
    try {
      return await Promise.race([prepare?.(current).then(() => ask(current, message)) ?? ask(current, message), limitHit]);
    } finally {
      holdOpen(current, false);
      clearTimeout(timer);
      clearInterval(watch);
      idleTimer = setTimeout(() => void stopProcess(), limits.idleMs);
      idleTimer.unref();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Called after every page read (or skipped): the document's reader (conversion-process.entry.ts) tells its pool the
 * document is still moving, so a long scan is not cut by the per-document time limit.
 */
export const ocrProgress: { onPage?: () => void } = {};

/** A process past its page count or its memory limit is replaced before the next page, which then starts small. */
async function afterPage(limits: OcrLimits): Promise<void> {
  ocrProgress.onPage?.();
  if (++pagesOnProcess >= limits.pagesPerProcess || residentMb(child?.pid) > limits.maxProcessMb) await stopProcess();
}

const recognized = (reply: OcrReply): RecognizedText => ({ text: reply.text ?? "", confidence: reply.confidence ?? 0 });

/** Recognises the text of one image, turned upright first when orientation detection finds it is not. */
export async function recognizeText(image: GrayImage, limits: Partial<OcrLimits> = {}): Promise<RecognizedText> {
  const bounds = { ...OCR_LIMITS, ...limits };
  if (image.width * image.height > bounds.maxPixels) throw new OcrError(`The image is larger than ${bounds.maxPixels} pixels`);
  const reply = await send({ type: "recognize", image }, bounds);
  await afterPage(bounds);
  return recognized(reply);
}

export interface PdfOcrSession {
  /** The page's recognised text, or null when it paints nothing (or, with onlyWithImages, no image) worth reading. */
  readPage(pageNumber: number, options: { onlyWithImages: boolean }): Promise<RecognizedText | null>;
  close(): Promise<void>;
}

/**
 * Pages of one PDF rendered and read in the OCR process; the document is opened again if the process was replaced.
 * A stored file is opened by path and read a range at a time, so the process holds only the pages it renders.
 */
export function openPdfForOcr(source: PdfSource, limits: Partial<OcrLimits> = {}): PdfOcrSession {
  const bounds = { ...OCR_LIMITS, ...limits };
  const documentId = nextId++;
  let openIn = -1;
  const ensureOpen = async (target: ChildProcess) => {
    if (openIn === generation) return;
    const reply = await ask(target, { type: "open-pdf", documentId, ...(source instanceof Uint8Array ? { bytes: source } : { path: source.path }) });
    if (reply.pages === undefined) throw new OcrError("The PDF could not be opened for text recognition");
    openIn = generation;
  };
  return {
    async readPage(pageNumber, options) {
      const reply = await send({ type: "pdf-page", documentId, pageNumber, dpi: OCR_DPI, maxPixels: bounds.maxPixels, ...options }, bounds, ensureOpen);
      if (reply.skipped) {
        ocrProgress.onPage?.();
        return null;
      }
      await afterPage(bounds);
      return recognized(reply);
    },
    async close() {
      if (openIn === generation && child) await send({ type: "close-pdf", documentId }, bounds).catch(() => undefined);
    },
  };
}

/** Ends the OCR process now (tests, shutdown). */
export async function closeOcr(): Promise<void> {
  clearTimeout(idleTimer);
  await queue;
  await stopProcess();
}
