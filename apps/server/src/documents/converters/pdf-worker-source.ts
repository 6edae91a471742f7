/**
 * The PDF text reader: plain JavaScript passed as source, so it needs no build step. It only reads glyph runs,
 * which the caller turns into lines; pages that need OCR are rendered in the OCR process instead. It runs in a
 * worker thread that loads pdf.js first and then waits for one document (bytes or a stored file's path) in a
 * message, so a spare one can be started ahead of time; or in a process of its own (`node -e`, its data and path
 * as the argument) for a large stored file.
 */
export const PDF_WORKER_SOURCE = `
const threads = require("node:worker_threads");
const { pathToFileURL } = require("node:url");
const fs = require("node:fs");
const workerData = threads.workerData ?? JSON.parse(process.argv[1]);
const post = threads.parentPort ? (message) => threads.parentPort.postMessage(message) : (message) => process.send(message);
if (!threads.parentPort) process.on("disconnect", () => process.exit(0));
const loaded = import(pathToFileURL(workerData.pdfjsPath).href);
const job = workerData.path ? Promise.resolve({ path: workerData.path }) : new Promise((resolve) => threads.parentPort.once("message", resolve));
job.then(async ({ bytes, path }) => {
  const { getDocument } = await loaded;
  let pdf;
  try {
    // A stored upload is read here, by path: a large one a range at a time as pages need it (the text layer of a
    // scan is a few KB of its tens of MB).
    const source = bytes
      ? { data: bytes }
      : fs.statSync(path).size > workerData.rangeReadFromBytes
        ? { url: pathToFileURL(path), disableStream: true, disableAutoFetch: true }
        : { data: new Uint8Array(fs.readFileSync(path)) };
    pdf = await getDocument({ ...source, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, standardFontDataUrl: workerData.standardFontDataUrl, cMapUrl: workerData.cMapUrl, cMapPacked: true }).promise;
  } catch (error) {
    post({ type: "open-error", message: String((error && error.message) || error) });
    return;
  }
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
    const page = await pdf.getPage(pageNumber);
    const content = await page.getTextContent();
    const items = content.items.filter((item) => "str" in item).map((item) => ({ str: item.str, transform: item.transform, width: item.width, height: item.height }));
    page.cleanup();
    post({ type: "page", pageNumber, items });
  }
  await pdf.destroy();
  post({ type: "done", pages: pdf.numPages });
}).catch((error) => post({ type: "error", message: String((error && error.message) || error) }));
`;
