import type { ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { forkEntry, startThread } from "../../entry-point.ts";
import { runInBackground } from "../background-priority.ts";
import { ConversionError, type ExtractedDocument, type ExtractedSection } from "../extracted-document.ts";
import { MIN_OCR_CONFIDENCE, OcrError, openPdfForOcr, type OcrLimits, type PdfSource } from "../ocr/ocr-engine.ts";
import { RANGE_READ_FROM_BYTES } from "../pdfjs-options.ts";
import type { PdfTextJob, PdfTextMessage, PositionedText } from "./pdf-text-reader.entry.ts";
import { readerFailure } from "./reader-failure.ts";
import { isMostlyUnreadable, letterCount, mainScript, MIN_LETTERS_TO_JUDGE } from "./text-readability.ts";

export const SCANNED_PDF_REASON = "No text found: the pages have no readable text layer, and text recognition (OCR) found no words on them.";

/** pdf.js's message (a PasswordException, "Invalid PDF structure") becomes plain words (reader-failure.ts). */
const openError = (message: string): ConversionError => readerFailure("The PDF", message);

/**
 * Text page by page. A page with (almost) no text layer, or whose text is mostly not words (a font without a
 * Unicode map), is rendered and read by OCR instead, one page at a time. Parsing runs in a worker thread and OCR
 * in its own process, so a long scan never stalls other requests and its memory is bounded and given back.
 */
export async function convertPdf(source: PdfSource, limits: Partial<OcrLimits> & { maxPages?: number } = {}): Promise<ExtractedDocument> {
  try {
    return await readPdf(source, limits);
  } finally {
    // The next spare starts once the document is done, its OCR included: a scan read by the spare would otherwise
    // have a new one (pdf.js, about 35 MB) waiting beside its OCR for as long as that takes.
    if (keepSpare && !spare) startSpare();
  }
}

/** Pages of a PDF read when the caller sets no limit (the server passes SAGE_DOCUMENT_MAX_PAGES). */
export const DEFAULT_MAX_PAGES = 5000;

async function readPdf(source: PdfSource, { maxPages = DEFAULT_MAX_PAGES, ...limits }: Partial<OcrLimits> & { maxPages?: number }): Promise<ExtractedDocument> {
  const { pageTexts, totalPages } = await readPageTexts(source, maxPages);
  const sections: ExtractedSection[] = [];
  const ocrPages: number[] = [];
  const ocrFailedPages: number[] = [];
  const ocrUnclearPages: number[] = [];
  let ocr: ReturnType<typeof openPdfForOcr> | undefined;
  try {
    for (const [index, text] of pageTexts.entries()) {
      const pageNumber = index + 1;
      const letters = letterCount(text);
      const unreadable = isMostlyUnreadable(text);
      let chosen = text;
      if (unreadable || letters < MIN_LETTERS_TO_JUDGE) {
        ocr ??= openPdfForOcr(source, limits);
        let recognized = "";
        let unclear = false;
        try {
          // A page with a few readable typed words is recognised only when it also shows an image (a scan with a stamp).
          const read = await ocr.readPage(pageNumber, { onlyWithImages: !unreadable && letters > 0 });
          unclear = read !== null && read.text.trim() !== "" && read.confidence < MIN_OCR_CONFIDENCE;
          if (read && !unclear) recognized = read.text;
        } catch (error) {
          if (!(error instanceof OcrError)) throw error;
          ocrFailedPages.push(pageNumber);
        }
        chosen = betterPageText(text, recognized);
        // Unclear OCR is left out; the page is named only when the text layer did not give its text either.
        if (unclear && !chosen.trim()) ocrUnclearPages.push(pageNumber);
        if (chosen === recognized && recognized) ocrPages.push(pageNumber);
      }
      if (chosen.trim()) sections.push({ source: `page ${pageNumber}`, text: chosen });
    }
  } finally {
    await ocr?.close();
  }
  const document: ExtractedDocument = { sections };
  if (totalPages > pageTexts.length) document.pagesNotRead = { read: pageTexts.length, total: totalPages };
  if (ocrPages.length > 0) document.ocrPages = ocrPages;
  if (ocrFailedPages.length > 0) document.ocrFailedPages = ocrFailedPages;
  if (ocrUnclearPages.length > 0) document.ocrUnclearPages = ocrUnclearPages;
  if (sections.length === 0) {
    document.notProcessedReason =
      ocrFailedPages.length > 0
        ? `Text recognition (OCR) could not finish ${pagesPhrase(ocrFailedPages)} within its limits, and no other text was found.`
        : ocrUnclearPages.length > 0
          ? `The text of ${pagesPhrase(ocrUnclearPages)} could not be read reliably: the scan may be blurred or faint, or in a language text recognition (OCR) does not read.`
          : SCANNED_PDF_REASON;
  }
  return document;
}

/**
 * The text layer unless OCR found more readable text; unreadable text is never kept. A readable layer in another
 * script than OCR's reading is kept whatever their lengths: a Japanese page read by a Latin-script recogniser gives
 * more letters, all of them wrong.
 */
function betterPageText(layer: string, recognized: string): string {
  const layerReadable = !isMostlyUnreadable(layer);
  const layerScript = layerReadable ? mainScript(layer) : null;
  const recognizedReadable = recognized.trim() !== "" && !isMostlyUnreadable(recognized) && (layerScript === null || mainScript(recognized) === layerScript);
  if (recognizedReadable && (!layerReadable || letterCount(recognized) > letterCount(layer))) return recognized;
  return layerReadable ? layer : "";
}

const pagesPhrase = (pages: number[]) =>
  pages.length === 1 ? `page ${pages[0]}` : `${pages.length} pages (${pages.slice(0, 10).join(", ")}${pages.length > 10 ? ", ..." : ""})`;

const READER = new URL("./pdf-text-reader.entry.ts", import.meta.url);
const READER_HEAP_MB = 512;
const startWorker = () => startThread(READER, { resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB } });

/** A worker that has loaded pdf.js and waits for a document (prepareSpareReaders). */
let spare: Worker | undefined;
let keepSpare = false;

function startSpare() {
  const worker = startWorker();
  // A spare must never keep its process alive, and one that failed is simply not used.
  worker.unref();
  worker.once("error", () => spare === worker && (spare = undefined));
  worker.once("exit", () => spare === worker && (spare = undefined));
  spare = worker;
}

/**
 * Keeps one PDF worker started ahead of the next document (the conversion process calls this once): loading pdf.js
 * took 0.4-1 s of every PDF's time. Each document still gets a fresh worker, ended after it.
 */
export function prepareSpareReaders(): void {
  keepSpare = true;
  if (!spare) startSpare();
}

/**
 * The text reader: a worker thread (the spare, given its document in a message), or for a stored file over the
 * range-read size a process of its own, because memory a thread touched stays with its process after it ends
 * (about 40 MB for a 60-page scan), and this process then waits through the OCR of every page.
 */
function startTextReader(source: PdfSource, maxPages: number): Worker | ChildProcess {
  if (!(source instanceof Uint8Array) && statSync(source.path).size > RANGE_READ_FROM_BYTES) {
    const reader = forkEntry(READER, {
      args: [source.path, String(maxPages)],
      execArgv: [`--max-old-space-size=${READER_HEAP_MB}`],
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      serialization: "advanced",
    });
    runInBackground(reader.pid);
    return reader;
  }
  const worker = spare ?? startWorker();
  spare = undefined;
  worker.ref();
  if (source instanceof Uint8Array) {
    const data = new Uint8Array(source);
    const job: PdfTextJob = { bytes: data, maxPages };
    worker.postMessage(job, [data.buffer]);
  } else {
    const job: PdfTextJob = { path: source.path, maxPages };
    worker.postMessage(job);
  }
  return worker;
}

/** Every page's text up to the page limit, and how many pages the PDF has, read by a worker thread or process. */
async function readPageTexts(source: PdfSource, maxPages: number): Promise<{ pageTexts: string[]; totalPages: number }> {
  const worker = startTextReader(source, maxPages);
  const texts: string[] = [];
  try {
    return await new Promise((resolve, reject) => {
      worker.on("message", (message: PdfTextMessage) => {
        if (message.type === "page") texts[message.pageNumber - 1] = pageText(message.items);
        else if (message.type === "done")
          resolve({ pageTexts: Array.from({ length: message.pages }, (_, index) => texts[index] ?? ""), totalPages: message.totalPages });
        else if (message.type === "open-error") reject(openError(message.message));
        else reject(readerFailure("The PDF", message.message));
      });
      worker.on("error", (error) => reject(readerFailure("The PDF", error)));
      worker.on("exit", (code) => reject(new ConversionError(`The PDF reader stopped unexpectedly (exit code ${code})`)));
    });
  } finally {
    if (worker instanceof Worker) await worker.terminate();
    else worker.kill("SIGKILL");
  }
}

/** Groups glyph runs into lines by baseline, orders them left to right, and marks paragraph gaps with blank lines. */
export function pageText(items: PositionedText[]): string {
  const lines: Array<{ y: number; height: number; parts: Array<{ x: number; end: number; text: string }> }> = [];
  for (const item of items) {
    if (!item.str) continue;
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const height = Math.abs(item.height || item.transform[3] || 10);
    let line = lines.find((candidate) => Math.abs(candidate.y - y) <= Math.max(2, height * 0.3));
    if (!line) {
      line = { y, height, parts: [] };
      lines.push(line);
    }
    line.parts.push({ x, end: x + (item.width || 0), text: item.str });
  }
  lines.sort((a, b) => b.y - a.y);
  let output = "";
  let previous: (typeof lines)[number] | undefined;
  for (const line of lines) {
    // A line of Arabic or Hebrew reads from the right: its runs are taken right to left (each run is already in
    // reading order), or its words would come out last first.
    const rtl = isRightToLeft(line.parts.map((part) => part.text).join(""));
    line.parts.sort((a, b) => (rtl ? b.x - a.x : a.x - b.x));
    let text = "";
    let lastEdge: number | undefined;
    for (const part of line.parts) {
      const gap = lastEdge === undefined ? 0 : rtl ? lastEdge - part.end : part.x - lastEdge;
      if (text && gap > line.height * 0.15 && !/\s$/.test(text) && !/^\s/.test(part.text)) text += " ";
      text += part.text;
      lastEdge = rtl ? part.x : part.end;
    }
    // Tatweel only stretches justified Arabic; a word typed into search has none.
    text = text.replaceAll("\u0640", "").replace(/\s+/g, " ").trim();
    if (!text) continue;
    if (previous) output += previous.y - line.y > Math.max(previous.height, line.height) * 1.8 ? "\n\n" : "\n";
    output += text;
    previous = line;
  }
  return output;
}

const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/gu;

/** Whether most letters of a line belong to a script written right to left. */
function isRightToLeft(text: string): boolean {
  const rightToLeft = text.match(RIGHT_TO_LEFT)?.length ?? 0;
  return rightToLeft > 0 && rightToLeft * 2 > letterCount(text);
}
