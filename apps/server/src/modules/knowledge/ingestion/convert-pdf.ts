import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ConversionError, type ExtractedDocument, type ExtractedSection } from "./extracted-document.ts";

export const SCANNED_PDF_REASON = "No text layer found: this PDF looks scanned (images only), and text recognition (OCR) is not available.";

interface PositionedText {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

const require = createRequire(import.meta.url);
let standardFontDataUrl: string | undefined;
try {
  standardFontDataUrl = `${path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;
} catch {
  standardFontDataUrl = undefined;
}

/**
 * The extraction runs in a worker thread, so parsing a long PDF never stalls other requests and pdf.js's
 * memory is returned when the worker exits. The worker is plain JavaScript passed as source, so it needs
 * no build step; it only reads glyph runs, which this thread turns into lines.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { pathToFileURL } = require("node:url");
(async () => {
  const { getDocument } = await import(pathToFileURL(workerData.pdfjsPath).href);
  let pdf;
  try {
    pdf = await getDocument({ data: workerData.bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, standardFontDataUrl: workerData.standardFontDataUrl }).promise;
  } catch (error) {
    parentPort.postMessage({ type: "open-error", message: String((error && error.message) || error) });
    return;
  }
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
    const page = await pdf.getPage(pageNumber);
    const content = await page.getTextContent();
    const items = content.items.filter((item) => "str" in item).map((item) => ({ str: item.str, transform: item.transform, width: item.width, height: item.height }));
    page.cleanup();
    parentPort.postMessage({ type: "page", pageNumber, items });
  }
  await pdf.destroy();
  parentPort.postMessage({ type: "done" });
})().catch((error) => parentPort.postMessage({ type: "error", message: String((error && error.message) || error) }));
`;

type WorkerMessage =
  | { type: "page"; pageNumber: number; items: PositionedText[] }
  | { type: "done" }
  | { type: "open-error" | "error"; message: string };

function openError(message: string): ConversionError {
  if (/password/i.test(message)) return new ConversionError("The PDF is password-protected");
  return new ConversionError(`The PDF could not be read: ${message}`);
}

export async function convertPdf(bytes: Uint8Array): Promise<ExtractedDocument> {
  const data = new Uint8Array(bytes);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { bytes: data, pdfjsPath: require.resolve("pdfjs-dist/legacy/build/pdf.mjs"), standardFontDataUrl },
    transferList: [data.buffer],
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  const sections: ExtractedSection[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "page") {
          const text = pageText(message.items);
          if (text.trim()) sections.push({ source: `page ${message.pageNumber}`, text });
        } else if (message.type === "done") resolve();
        else if (message.type === "open-error") reject(openError(message.message));
        else reject(new ConversionError(`The PDF could not be read: ${message.message}`));
      });
      worker.on("error", (error) => reject(new ConversionError(`The PDF could not be read: ${error.message}`)));
      worker.on("exit", (code) => reject(new ConversionError(`The PDF reader stopped unexpectedly (exit code ${code})`)));
    });
  } finally {
    await worker.terminate();
  }
  if (sections.length === 0) return { sections, notProcessedReason: SCANNED_PDF_REASON };
  return { sections };
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
