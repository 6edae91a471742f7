import { createRequire } from "node:module";
import path from "node:path";
import type { Worker as TesseractWorker } from "tesseract.js";

/** 8-bit grey pixels, row by row. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface OcrLimits {
  /** A page that takes longer is given up: its worker is stopped (freeing its memory) and replaced. */
  pageTimeoutMs: number;
  /** Images are scaled to at most this many pixels before recognition; this bounds the recogniser's memory. */
  maxPixels: number;
  /** WebAssembly memory only grows, so a worker is replaced after this many pages. */
  pagesPerWorker: number;
  /** An idle worker is stopped after this long, returning its memory. */
  idleMs: number;
}

/** A4 at 300 dpi is 8.7 million pixels; recognising one takes 2-4 s on one core and about 150 MB. */
export const OCR_LIMITS: OcrLimits = { pageTimeoutMs: 60_000, maxPixels: 9_000_000, pagesPerWorker: 25, idleMs: 15_000 };

export class OcrError extends Error {}

const require = createRequire(import.meta.url);
/** English LSTM data shipped in the npm package (integer "best" models, tesseract.js's own default): never downloaded. */
export const OCR_LANGUAGE_PATH = path.join(path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int");

let worker: Promise<TesseractWorker> | null = null;
let pagesOnWorker = 0;
let idleTimer: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** A tesseract.js worker (its own thread) reading only the local language data, with no cache written anywhere. */
export async function createOcrWorker(): Promise<TesseractWorker> {
  const { createWorker, OEM, PSM } = await import("tesseract.js");
  const created = await createWorker("eng", OEM.LSTM_ONLY, { langPath: OCR_LANGUAGE_PATH, gzip: true, cacheMethod: "none" });
  // Whole pages: find the columns and blocks (the library's default reads one uniform block). Tesseract's
  // notes ("Estimating resolution as ...") go nowhere instead of the server's output.
  await created.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: "/dev/null" });
  return created;
}

/**
 * Recognises the text of one image. Calls are queued: one page at a time in the whole process, which is what keeps
 * memory flat when several documents are ingested at once.
 */
export function recognizeText(image: GrayImage, limits: Partial<OcrLimits> = {}): Promise<string> {
  const run = queue.then(() => recognizeNow(image, { ...OCR_LIMITS, ...limits }));
  queue = run.catch(() => undefined);
  return run;
}

async function recognizeNow(image: GrayImage, limits: OcrLimits): Promise<string> {
  clearTimeout(idleTimer);
  if (image.width * image.height > limits.maxPixels) throw new OcrError(`The image is larger than ${limits.maxPixels} pixels`);
  worker ??= createOcrWorker();
  const current = worker;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrError(`Text recognition took longer than ${Math.round(limits.pageTimeoutMs / 1000)} s`)), limits.pageTimeoutMs);
    });
    const recognized = await Promise.race([current.then((ready) => ready.recognize(toPgm(image))), timeout]);
    if (++pagesOnWorker >= limits.pagesPerWorker) await stopWorker();
    return recognized.data.text.trim();
  } catch (error) {
    await stopWorker();
    throw error instanceof OcrError ? error : new OcrError(`Text recognition failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    idleTimer = setTimeout(() => void stopWorker(), limits.idleMs);
    idleTimer.unref();
  }
}

async function stopWorker(): Promise<void> {
  const stopping = worker;
  worker = null;
  pagesOnWorker = 0;
  if (stopping) await stopping.then((ready) => ready.terminate()).catch(() => undefined);
}

/** Stops the recogniser now (tests, shutdown). */
export async function closeOcr(): Promise<void> {
  clearTimeout(idleTimer);
  await queue;
  await stopWorker();
}

/** Binary PGM: the smallest image file Leptonica reads without a decoder, so no PNG is encoded only to be decoded. */
function toPgm(image: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, "ascii");
  return Buffer.concat([header, image.data]);
}
