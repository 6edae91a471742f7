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

/**
 * The one image of a page that is nothing but that image, upright and covering the page (an office scanner's
 * page), or null. Any other operator (text, paths, masks, forms, graphics states) leaves the page to the renderer.
 */
async function wholePageImage(pdf, page, operators) {
  const OPS = pdfjs.OPS;
  const neutral = new Set([OPS.dependency, OPS.beginMarkedContent, OPS.beginMarkedContentProps, OPS.endMarkedContent]);
  if (page.rotate % 360 !== 0) return null;
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack = [];
  let found = null;
  for (let index = 0; index < operators.fnArray.length; index++) {
    const fn = operators.fnArray[index];
    const args = operators.argsArray[index];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() || ctm;
    else if (fn === OPS.transform) {
      const [a, b, c, d, e, f] = args;
      ctm = [ctm[0] * a + ctm[2] * b, ctm[1] * a + ctm[3] * b, ctm[0] * c + ctm[2] * d, ctm[1] * c + ctm[3] * d, ctm[0] * e + ctm[2] * f + ctm[4], ctm[1] * e + ctm[3] * f + ctm[5]];
    } else if (fn === OPS.paintImageXObject && !found) found = { objId: args[0], ctm };
    else if (!neutral.has(fn)) return null;
  }
  if (!found) return null;
  const [a, b, c, d, e, f] = found.ctm;
  const [x0, y0, x1, y1] = page.view;
  const near = (value, edge, size) => Math.abs(value - edge) <= size * 0.01;
  if (b !== 0 || c !== 0 || a <= 0 || d <= 0) return null;
  if (!near(e, x0, x1 - x0) || !near(e + a, x1, x1 - x0) || !near(f, y0, y1 - y0) || !near(f + d, y1, y1 - y0)) return null;
  const objects = found.objId.startsWith("g_") ? pdf.commonObjs : page.objs;
  const image = await new Promise((resolve) => objects.get(found.objId, resolve));
  return image && image.data && [1, 2, 3].includes(image.kind) ? image : null;
}

/** A decoded PDF image scaled down to width x height grey pixels, each the mean of the source pixels it covers. */
function scaledGray(image, width, height) {
  const { data, kind } = image;
  const sourceWidth = image.width;
  const rowBytes = kind === 1 ? (sourceWidth + 7) >> 3 : sourceWidth * (kind === 2 ? 3 : 4);
  const firstColumn = new Uint32Array(width + 1);
  for (let x = 0; x <= width; x++) firstColumn[x] = Math.floor((x * sourceWidth) / width);
  const sums = new Uint32Array(width);
  const gray = new Uint8Array(width * height);
  const sourceGray = (row, x) => {
    if (kind === 1) return (data[row + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
    const at = row + x * (kind === 2 ? 3 : 4);
    const value = (data[at] * 77 + data[at + 1] * 150 + data[at + 2] * 29) >> 8;
    return kind === 2 ? value : 255 - (((255 - value) * data[at + 3]) >> 8);
  };
  for (let y = 0; y < height; y++) {
    const fromRow = Math.floor((y * image.height) / height);
    const toRow = Math.max(fromRow + 1, Math.floor(((y + 1) * image.height) / height));
    sums.fill(0);
    for (let row = fromRow; row < toRow; row++) {
      const start = row * rowBytes;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let column = firstColumn[x]; column < firstColumn[x + 1]; column++) sum += sourceGray(start, column);
        sums[x] += sum;
      }
    }
    for (let x = 0; x < width; x++) gray[y * width + x] = sums[x] / ((toRow - fromRow) * (firstColumn[x + 1] - firstColumn[x]));
  }
  return gray;
}

/** Grey pixels of a page, or null when it paints nothing (or, with onlyWithImages, no image) worth reading. */
async function renderPage(pdf, request) {
  const page = await pdf.getPage(request.pageNumber);
  try {
    const operators = await page.getOperatorList();
    const painted = paintedKinds(operators.fnArray);
    if (!(painted.images || (painted.drawing && !request.onlyWithImages))) return null;
    const base = page.getViewport({ scale: 1 });
    const scale = Math.min(request.dpi / 72, Math.sqrt(request.maxPixels / (base.width * base.height)));
    const viewport = page.getViewport({ scale });
    const width = Math.floor(viewport.width);
    const height = Math.floor(viewport.height);
    // A scanned page's image is scaled straight to grey: painting it takes a canvas of its full size (35 MB at
    // 300 dpi) and one of the page's (18 MB), the OCR process's largest use of memory beside the recogniser.
    const scan = await wholePageImage(pdf, page, operators);
    if (scan && scan.width >= width && scan.height >= height) return { width, height, data: scaledGray(scan, width, height) };
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
