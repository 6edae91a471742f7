// The PDF text reader (convert-pdf.ts starts it). It only reads glyph runs, which the caller turns into lines; pages
// that need OCR are rendered in the OCR process instead. It runs in a worker thread that loads pdf.js first and then
// waits for one document (bytes or a stored file's path) in a message, so a spare one can be started ahead of time;
// or in a process of its own, given a large stored file's path as its argument.
import { readFileSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parentPort } from "node:worker_threads";
import { dieWithParent } from "../die-with-parent.ts";
import { PDFJS_DOCUMENT_OPTIONS, RANGE_READ_FROM_BYTES } from "../pdfjs-options.ts";

export interface PositionedText {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

/** One document to read: its bytes, or a stored upload's path; no more than its first `maxPages` pages. */
export type PdfTextJob = ({ bytes: Uint8Array; path?: undefined } | { path: string; bytes?: undefined }) & { maxPages: number };

export type PdfTextMessage =
  | { type: "page"; pageNumber: number; items: PositionedText[] }
  | { type: "done"; pages: number; totalPages: number }
  | { type: "open-error" | "error"; message: string };

const post = (message: PdfTextMessage) => (parentPort ? parentPort.postMessage(message) : process.send!(message));
const errorText = (error: unknown) => String((error as Error | undefined)?.message || error);
// A process ends with the conversion process that started it, however busy it is; a thread with its process.
if (!parentPort) dieWithParent();

const loaded = import("pdfjs-dist/legacy/build/pdf.mjs");
const job: Promise<PdfTextJob> = parentPort
  ? new Promise((resolve) => parentPort!.once("message", resolve))
  : Promise.resolve({ path: process.argv[2]!, maxPages: Number(process.argv[3]) });

async function read({ bytes, path, maxPages }: PdfTextJob): Promise<void> {
  const { getDocument } = await loaded;
  let pdf: Awaited<ReturnType<typeof getDocument>["promise"]>;
  try {
    // A stored upload is read here, by path: a large one a range at a time as pages need it (the text layer of a
    // scan is a few KB of its tens of MB).
    const source = bytes
      ? { data: bytes }
      : statSync(path).size > RANGE_READ_FROM_BYTES
        ? { url: pathToFileURL(path), disableStream: true, disableAutoFetch: true }
        : { data: new Uint8Array(readFileSync(path)) };
    pdf = await getDocument({ ...source, ...PDFJS_DOCUMENT_OPTIONS }).promise;
  } catch (error) {
    post({ type: "open-error", message: errorText(error) });
    return;
  }
  // Pages past the limit are never opened: a 100,000-page file would keep this reader busy for hours.
  const pages = Math.min(pdf.numPages, maxPages);
  for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
    const page = await pdf.getPage(pageNumber);
    const content = await page.getTextContent();
    const items = content.items.flatMap((item) =>
      "str" in item ? [{ str: item.str, transform: item.transform as number[], width: item.width, height: item.height }] : [],
    );
    page.cleanup();
    post({ type: "page", pageNumber, items });
  }
  await pdf.destroy();
  post({ type: "done", pages, totalPages: pdf.numPages });
}

job.then(read).catch((error: unknown) => post({ type: "error", message: errorText(error) }));
