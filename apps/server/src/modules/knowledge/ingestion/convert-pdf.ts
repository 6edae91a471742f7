import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ConversionError, type ExtractedDocument, type ExtractedSection } from "./extracted-document.ts";
import { OCR_LIMITS, OcrError, recognizeText, type GrayImage, type OcrLimits } from "./ocr-engine.ts";
import { PDF_WORKER_SOURCE } from "./pdf-worker-source.ts";
import { isMostlyUnreadable, letterCount, MIN_LETTERS_TO_JUDGE } from "./text-readability.ts";

export const SCANNED_PDF_REASON = "No text found: the pages have no readable text layer, and text recognition (OCR) found no words on them.";
/** Pages are rendered for OCR at this resolution (less when the page is over the pixel budget). */
export const OCR_DPI = 300;

interface PositionedText {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

type WorkerMessage =
  | { type: "page"; pageNumber: number; items: PositionedText[] }
  | { type: "done"; pages: number }
  | ({ type: "image"; pageNumber: number } & GrayImage)
  | { type: "skip"; pageNumber: number }
  | { type: "render-error"; pageNumber: number; message: string }
  | { type: "open-error" | "error"; message: string };

const require = createRequire(import.meta.url);
const pdfjsDir = path.dirname(require.resolve("pdfjs-dist/package.json"));
const WORKER_DATA = {
  pdfjsPath: require.resolve("pdfjs-dist/legacy/build/pdf.mjs"),
  standardFontDataUrl: `${path.join(pdfjsDir, "standard_fonts")}/`,
  cMapUrl: `${path.join(pdfjsDir, "cmaps")}/`,
  // JPEG 2000 and JBIG2 images, common in scans, are decoded by pdf.js's WebAssembly modules.
  wasmUrl: `${path.join(pdfjsDir, "wasm")}/`,
};

function openError(message: string): ConversionError {
  if (/password/i.test(message)) return new ConversionError("The PDF is password-protected");
  return new ConversionError(`The PDF could not be read: ${message}`);
}

/**
 * Text page by page. A page with (almost) no text layer, or whose text is mostly not words (a font without a
 * Unicode map), is rendered and read by OCR instead. The PDF is parsed in a worker thread, and OCR runs in its own,
 * so a long scan never stalls other requests; pages are rendered one at a time, so memory stays flat.
 */
export async function convertPdf(bytes: Uint8Array, limits: Partial<OcrLimits> = {}): Promise<ExtractedDocument> {
  const ocrLimits = { ...OCR_LIMITS, ...limits };
  const reader = startPdfWorker(bytes);
  const sections: ExtractedSection[] = [];
  const ocrPages: number[] = [];
  const ocrFailedPages: number[] = [];
  try {
    const pageTexts = await reader.pages;
    for (const [index, text] of pageTexts.entries()) {
      const pageNumber = index + 1;
      const letters = letterCount(text);
      const unreadable = isMostlyUnreadable(text);
      let chosen = text;
      if (unreadable || letters < MIN_LETTERS_TO_JUDGE) {
        let recognized = "";
        try {
          // A page with a few readable typed words is recognised only when it also shows an image (a scan with a stamp).
          const image = await reader.render({ pageNumber, maxPixels: ocrLimits.maxPixels, onlyWithImages: !unreadable && letters > 0 });
          recognized = image ? await recognizeText(image, ocrLimits) : "";
        } catch (error) {
          if (!(error instanceof OcrError)) throw error;
          ocrFailedPages.push(pageNumber);
        }
        chosen = betterPageText(text, recognized);
        if (chosen === recognized && recognized) ocrPages.push(pageNumber);
      }
      if (chosen.trim()) sections.push({ source: `page ${pageNumber}`, text: chosen });
    }
  } finally {
    await reader.close();
  }
  const document: ExtractedDocument = { sections };
  if (ocrPages.length > 0) document.ocrPages = ocrPages;
  if (ocrFailedPages.length > 0) document.ocrFailedPages = ocrFailedPages;
  if (sections.length === 0) {
    document.notProcessedReason =
      ocrFailedPages.length > 0 ? `Text recognition (OCR) could not finish ${pagesPhrase(ocrFailedPages)} within its limits, and no other text was found.` : SCANNED_PDF_REASON;
  }
  return document;
}

/** The text layer unless OCR found more readable text; unreadable text is never kept. */
function betterPageText(layer: string, recognized: string): string {
  const layerReadable = !isMostlyUnreadable(layer);
  const recognizedReadable = recognized.trim() !== "" && !isMostlyUnreadable(recognized);
  if (recognizedReadable && (!layerReadable || letterCount(recognized) > letterCount(layer))) return recognized;
  return layerReadable ? layer : "";
}

const pagesPhrase = (pages: number[]) => (pages.length === 1 ? `page ${pages[0]}` : `${pages.length} pages (${pages.slice(0, 10).join(", ")}${pages.length > 10 ? ", ..." : ""})`);

/** The worker reads all pages' text, then renders pages on request, one at a time. */
function startPdfWorker(bytes: Uint8Array) {
  const data = new Uint8Array(bytes);
  const worker = new Worker(PDF_WORKER_SOURCE, {
    eval: true,
    workerData: { ...WORKER_DATA, bytes: data },
    transferList: [data.buffer],
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  const texts: string[] = [];
  let pending: { resolve(image: GrayImage | null): void; reject(error: Error): void } | undefined;
  const settlePending = (settle: (waiting: NonNullable<typeof pending>) => void) => {
    const waiting = pending;
    pending = undefined;
    if (waiting) settle(waiting);
  };
  const pages = new Promise<string[]>((resolve, reject) => {
    const fail = (error: Error) => {
      reject(error);
      settlePending((waiting) => waiting.reject(error));
    };
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "page") texts[message.pageNumber - 1] = pageText(message.items);
      else if (message.type === "done") resolve(Array.from({ length: message.pages }, (_, index) => texts[index] ?? ""));
      else if (message.type === "image") settlePending((waiting) => waiting.resolve({ width: message.width, height: message.height, data: message.data }));
      else if (message.type === "skip") settlePending((waiting) => waiting.resolve(null));
      else if (message.type === "render-error") settlePending((waiting) => waiting.reject(new OcrError(`Page ${message.pageNumber} could not be rendered: ${message.message}`)));
      else if (message.type === "open-error") fail(openError(message.message));
      else fail(new ConversionError(`The PDF could not be read: ${message.message}`));
    });
    worker.on("error", (error) => fail(new ConversionError(`The PDF could not be read: ${error.message}`)));
    worker.on("exit", (code) => fail(new ConversionError(`The PDF reader stopped unexpectedly (exit code ${code})`)));
  });
  return {
    pages,
    /** The page as grey pixels, or null when it paints nothing worth recognising. */
    render(request: { pageNumber: number; maxPixels: number; onlyWithImages: boolean }): Promise<GrayImage | null> {
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ type: "render", dpi: OCR_DPI, ...request });
      });
    },
    close: () => worker.terminate(),
  };
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
    line.parts.sort((a, b) => a.x - b.x);
    let text = "";
    let lastEnd: number | undefined;
    for (const part of line.parts) {
      const gap = lastEnd === undefined ? 0 : part.x - lastEnd;
      if (text && gap > line.height * 0.15 && !/\s$/.test(text) && !/^\s/.test(part.text)) text += " ";
      text += part.text;
      lastEnd = part.end;
    }
    text = text.replace(/\s+/g, " ").trim();
    if (!text) continue;
    if (previous) output += previous.y - line.y > Math.max(previous.height, line.height) * 1.8 ? "\n\n" : "\n";
    output += text;
    previous = line;
  }
  return output;
}
