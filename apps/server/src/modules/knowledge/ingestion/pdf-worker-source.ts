/**
 * The PDF worker: plain JavaScript passed as source, so it needs no build step. It reads every page's glyph runs
 * (the main thread turns them into lines) and then stays open to render single pages as grey pixels for OCR, one
 * at a time when asked, so at most one page image exists at once. A page that paints nothing, or (when asked
 * `onlyWithImages`) no image, is answered "skip" without rendering: short typed pages are not worth OCR.
 */
export const PDF_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { pathToFileURL } = require("node:url");

function paintedKinds(OPS, fnArray) {
  const images = new Set(["paintImageXObject", "paintInlineImageXObject", "paintInlineImageXObjectGroup", "paintImageXObjectRepeat", "paintImageMaskXObject",
    "paintImageMaskXObjectGroup", "paintImageMaskXObjectRepeat", "paintSolidColorImageMask"].map((name) => OPS[name]));
  const drawing = new Set(["constructPath", "fill", "eoFill", "stroke", "fillStroke", "eoFillStroke", "closeStroke", "closeFillStroke", "closeEOFillStroke",
    "shadingFill", "showText", "showSpacedText", "nextLineShowText", "nextLineSetSpacingShowText"].map((name) => OPS[name]));
  return { images: fnArray.some((fn) => images.has(fn)), drawing: fnArray.some((fn) => drawing.has(fn)) };
}

async function renderPage(pdf, OPS, request) {
  const { pageNumber, dpi, maxPixels, onlyWithImages } = request;
  const page = await pdf.getPage(pageNumber);
  const painted = paintedKinds(OPS, (await page.getOperatorList()).fnArray);
  if (!(painted.images || (painted.drawing && !onlyWithImages))) {
    page.cleanup();
    return null;
  }
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(dpi / 72, Math.sqrt(maxPixels / (base.width * base.height)));
  const viewport = page.getViewport({ scale });
  const width = Math.floor(viewport.width);
  const height = Math.floor(viewport.height);
  const target = pdf.canvasFactory.create(width, height);
  try {
    await page.render({ canvas: target.canvas, canvasContext: target.context, viewport, background: "#ffffff" }).promise;
    const rgba = target.canvas.data();
    const gray = new Uint8Array(width * height);
    for (let pixel = 0, offset = 0; pixel < gray.length; pixel++, offset += 4) {
      gray[pixel] = (rgba[offset] * 77 + rgba[offset + 1] * 150 + rgba[offset + 2] * 29) >> 8;
    }
    return { width, height, data: gray };
  } finally {
    pdf.canvasFactory.destroy(target);
    page.cleanup();
  }
}

(async () => {
  const { getDocument, OPS } = await import(pathToFileURL(workerData.pdfjsPath).href);
  let pdf;
  try {
    pdf = await getDocument({
      data: workerData.bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0,
      standardFontDataUrl: workerData.standardFontDataUrl, cMapUrl: workerData.cMapUrl, cMapPacked: true, wasmUrl: workerData.wasmUrl,
    }).promise;
  } catch (error) {
    parentPort.postMessage({ type: "open-error", message: String((error && error.message) || error) });
    return;
  }
  parentPort.on("message", (message) => {
    if (message.type !== "render") return;
    renderPage(pdf, OPS, message).then(
      (image) => parentPort.postMessage(image ? { type: "image", pageNumber: message.pageNumber, ...image } : { type: "skip", pageNumber: message.pageNumber }, image ? [image.data.buffer] : []),
      (error) => parentPort.postMessage({ type: "render-error", pageNumber: message.pageNumber, message: String((error && error.message) || error) }),
    );
  });
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
    const page = await pdf.getPage(pageNumber);
    const content = await page.getTextContent();
    const items = content.items.filter((item) => "str" in item).map((item) => ({ str: item.str, transform: item.transform, width: item.width, height: item.height }));
    page.cleanup();
    parentPort.postMessage({ type: "page", pageNumber, items });
  }
  parentPort.postMessage({ type: "done", pages: pdf.numPages });
})().catch((error) => parentPort.postMessage({ type: "error", message: String((error && error.message) || error) }));
`;
