/**
 * The PDF text worker: plain JavaScript passed as source, so it needs no build step. It only reads glyph runs,
 * which the main thread turns into lines; pages that need OCR are rendered in the OCR process instead.
 */
export const PDF_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { pathToFileURL } = require("node:url");
(async () => {
  const { getDocument } = await import(pathToFileURL(workerData.pdfjsPath).href);
  let pdf;
  try {
    // A stored upload is read here, by path, so its bytes live only as long as this thread.
    const data = workerData.bytes ?? new Uint8Array(require("node:fs").readFileSync(workerData.path));
    pdf = await getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, standardFontDataUrl: workerData.standardFontDataUrl, cMapUrl: workerData.cMapUrl, cMapPacked: true }).promise;
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
  parentPort.postMessage({ type: "done", pages: pdf.numPages });
})().catch((error) => parentPort.postMessage({ type: "error", message: String((error && error.message) || error) }));
`;
