/**
 * The OCR process: plain JavaScript run with `node -e`, so it needs no build step. It holds the tesseract.js
 * worker and renders PDF pages with pdf.js, the two big memory users of OCR, outside the server process, where a
 * time or memory limit can end it outright. Requests arrive over IPC one at a time; each gets one reply by id.
 */
export const OCR_PROCESS_SOURCE = `
const { pathToFileURL } = require("node:url");
const config = JSON.parse(process.argv[1]);
const documents = new Map();
let tesseract = null;
let pdfjs = null;

async function recognize(image) {
  if (!tesseract) {
    const { createWorker, OEM, PSM } = require(config.tesseractPath);
    tesseract = await createWorker("eng", OEM.LSTM_ONLY, { langPath: config.languagePath, gzip: true, cacheMethod: "none" });
    // Whole pages: find columns and blocks (the library's default reads one uniform block); notes go nowhere.
    await tesseract.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: "/dev/null" });
  }
  // Binary PGM: the smallest image file Leptonica reads without a decoder.
  const pgm = Buffer.concat([Buffer.from("P5\\n" + image.width + " " + image.height + "\\n255\\n", "ascii"), Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength)]);
  const { data } = await tesseract.recognize(pgm);
  return data.text.trim();
}

function paintedKinds(fnArray) {
  const OPS = pdfjs.OPS;
  const images = new Set(["paintImageXObject", "paintInlineImageXObject", "paintInlineImageXObjectGroup", "paintImageXObjectRepeat", "paintImageMaskXObject",
    "paintImageMaskXObjectGroup", "paintImageMaskXObjectRepeat", "paintSolidColorImageMask"].map((name) => OPS[name]));
  const drawing = new Set(["constructPath", "fill", "eoFill", "stroke", "fillStroke", "eoFillStroke", "closeStroke", "closeFillStroke", "closeEOFillStroke",
    "shadingFill", "showText", "showSpacedText", "nextLineShowText", "nextLineSetSpacingShowText"].map((name) => OPS[name]));
  return { images: fnArray.some((fn) => images.has(fn)), drawing: fnArray.some((fn) => drawing.has(fn)) };
}

/** Grey pixels of a page, or null when it paints nothing (or, with onlyWithImages, no image) worth reading. */
async function renderPage(pdf, request) {
  const page = await pdf.getPage(request.pageNumber);
  try {
    const painted = paintedKinds((await page.getOperatorList()).fnArray);
    if (!(painted.images || (painted.drawing && !request.onlyWithImages))) return null;
    const base = page.getViewport({ scale: 1 });
    const scale = Math.min(request.dpi / 72, Math.sqrt(request.maxPixels / (base.width * base.height)));
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
    }
  } finally {
    page.cleanup();
  }
}

async function handle(request) {
  if (request.type === "recognize") return { text: await recognize(request.image) };
  if (request.type === "open-pdf") {
    pdfjs ??= await import(pathToFileURL(config.pdfjsPath).href);
    const bytes = request.bytes;
    // A file is read in ranges as pages need them (no auto-fetch of the rest), never whole.
    const from = bytes ? { data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) } : { url: pathToFileURL(request.path), disableStream: true, disableAutoFetch: true };
    const pdf = await pdfjs.getDocument({
      ...from, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0,
      standardFontDataUrl: config.standardFontDataUrl, cMapUrl: config.cMapUrl, cMapPacked: true, wasmUrl: config.wasmUrl,
    }).promise;
    documents.set(request.documentId, pdf);
    return { pages: pdf.numPages };
  }
  if (request.type === "pdf-page") {
    const pdf = documents.get(request.documentId);
    if (!pdf) throw new Error("the document is not open");
    const image = await renderPage(pdf, request);
    return image ? { text: await recognize(image) } : { skipped: true };
  }
  if (request.type === "close-pdf") {
    await documents.get(request.documentId)?.destroy();
    documents.delete(request.documentId);
    return {};
  }
  throw new Error("unknown request " + request.type);
}

let chain = Promise.resolve();
process.on("message", (request) => {
  chain = chain.then(() => handle(request).then(
    (reply) => process.send({ id: request.id, ...reply }),
    (error) => process.send({ id: request.id, error: String((error && error.message) || error) }),
  )).then(() => {
    // A page's pixels are tens of megabytes outside the JavaScript heap: collect them now, not when the heap fills.
    if (global.gc) global.gc();
  });
});
process.on("disconnect", () => process.exit(0));
`;
