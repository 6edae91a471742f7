// The OCR process (ocr-engine.ts starts it). It holds the tesseract.js worker and renders PDF pages with pdf.js,
// the two big memory users of OCR, outside the conversion process, where a time or memory limit can end it
// outright. Requests arrive over IPC one at a time; each gets one reply by id. Its one argument names the
// recogniser's language data files and the orientation data (OcrProcessData, as JSON).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { dieWithParent } from "../die-with-parent.ts";
import { PDFJS_DOCUMENT_OPTIONS, PDFJS_WASM_URL } from "../pdfjs-options.ts";
import type { GrayImage, OcrProcessData, OcrReply, OcrRequest } from "./ocr-protocol.ts";

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfDocument = Awaited<ReturnType<Pdfjs["getDocument"]>["promise"]>;
type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;
type OperatorList = Awaited<ReturnType<PdfPage["getOperatorList"]>>;
/** A decoded PDF image: 1 bit, RGB or RGBA per pixel (pdf.js's ImageKind 1, 2, 3). */
interface PdfImage {
  width: number;
  height: number;
  kind: 1 | 2 | 3;
  data: Uint8Array;
}
/** The node canvas pdf.js renders into (its canvasFactory, backed by @napi-rs/canvas). */
interface CanvasFactory {
  create(width: number, height: number): { canvas: { data(): Uint8Array }; context: CanvasRenderingContext2D };
  destroy(target: object): void;
}

type TesseractWorker = Awaited<ReturnType<typeof import("tesseract.js").createWorker>>;

const processData = JSON.parse(process.argv[2]!) as OcrProcessData;
const documents = new Map<number, PdfDocument>();
let tesseract: TesseractWorker | null = null;
let orientation: TesseractWorker | null | undefined;
let pdfjs: Pdfjs | null = null;

/** tesseract.js reads every language from one folder: the engine made it (links to the data) and removes it. */
const languageFolder = processData.languageFolder;

/** An upright page's orientation is trusted only past this OSD confidence (a few lines of text score 2-4). */
const MIN_ORIENTATION_CONFIDENCE = 1;
/** A page read worse than this is read the other likely way too (as it was, or if taken as upright, upside down). */
const RECHECK_BELOW_CONFIDENCE = 80;

async function worker(): Promise<TesseractWorker> {
  if (!tesseract) {
    const { createWorker, OEM, PSM } = createRequire(import.meta.url)("tesseract.js") as typeof import("tesseract.js");
    const codes = processData.languages.map((language) => language.code).join("+");
    tesseract = await createWorker(codes, OEM.LSTM_ONLY, { langPath: languageFolder, gzip: true, cacheMethod: "none" });
    // Whole pages: find columns and blocks (the library's default reads one uniform block); notes go nowhere.
    await tesseract.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: "/dev/null" });
  }
  return tesseract;
}

/** Orientation detection needs the legacy engine, so it has a small worker of its own; null if it cannot start. */
async function orientationWorker(): Promise<TesseractWorker | null> {
  if (orientation === undefined) {
    const { createWorker, OEM } = createRequire(import.meta.url)("tesseract.js") as typeof import("tesseract.js");
    orientation = await createWorker("osd", OEM.TESSERACT_ONLY, {
      langPath: languageFolder,
      gzip: true,
      cacheMethod: "none",
      legacyCore: true,
      legacyLang: true,
    }).catch(() => null);
    await orientation?.setParameters({ debug_file: "/dev/null" });
  }
  return orientation;
}

/** Binary PGM: the smallest image file Leptonica reads without a decoder. */
const pgm = (image: GrayImage) =>
  Buffer.concat([
    Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, "ascii"),
    Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength),
  ]);

/** The image turned clockwise by 90, 180 or 270 degrees. */
function turned(image: GrayImage, degrees: 90 | 180 | 270): GrayImage {
  const { width, height, data } = image;
  // A copy: the pixels may arrive as a Buffer, whose slice() shares memory, and the page may be read as it is too.
  if (degrees === 180) return { width, height, data: Uint8Array.from(data).reverse() };
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Clockwise: (x, y) goes to (height - 1 - y, x); counter-clockwise: to (y, width - 1 - x). New width = height.
      const target = degrees === 90 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y;
      out[target] = data[y * width + x]!;
    }
  }
  return { width: height, height: width, data: out };
}

/**
 * Orientation detection reads this many pixels at most: an A4 page at 300 dpi (8.7 million) took 4-8 s, at 150 dpi
 * 1.4-1.8 s. Pages come here at most 4.5 million pixels (OCR_LIMITS), so only larger images are shrunk: halving a
 * 150 dpi scan drawn into a PDF left its 10 pt text too small, and an upright page was taken as upside down.
 */
const ORIENTATION_PIXELS = 4_500_000;

/** The image shrunk by a whole factor (each pixel the mean of a square) to at most `maxPixels`. */
function shrunk(image: GrayImage, maxPixels: number): GrayImage {
  const factor = Math.ceil(Math.sqrt((image.width * image.height) / maxPixels));
  if (factor <= 1) return image;
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * image.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += image.data[row + dx]!;
      }
      data[y * width + x] = sum / (factor * factor);
    }
  }
  return { width, height, data };
}

/** Degrees to turn the image clockwise to make its text upright, by orientation detection; 0 when unsure. */
async function uprightTurn(image: GrayImage): Promise<0 | 90 | 180 | 270> {
  const detector = await orientationWorker();
  if (!detector) return 0;
  try {
    const { data } = await detector.detect(pgm(shrunk(image, ORIENTATION_PIXELS)));
    if (!data.orientation_degrees || (data.orientation_confidence ?? 0) < MIN_ORIENTATION_CONFIDENCE) return 0;
    // tesseract.js gives the text's rotation counter-clockwise from upright; turning the image clockwise by as much undoes it.
    return data.orientation_degrees as 90 | 180 | 270;
  } catch {
    return 0; // Too little text to tell (a blank page): read it as it is.
  }
}

async function recognize(image: GrayImage): Promise<{ text: string; confidence: number }> {
  const reader = await worker();
  const read = async (target: GrayImage) => {
    const { data } = await reader.recognize(pgm(target));
    const text = data.text.trim();
    return { text, confidence: text ? data.confidence : 0 };
  };
  const turn = await uprightTurn(image);
  const first = await read(turn === 0 ? image : turned(image, turn));
  if (first.confidence >= RECHECK_BELOW_CONFIDENCE || !first.text) return first;
  // Read badly: the detection may have been wrong (too little text to tell), so read it the other likely way too.
  const second = await read(turn === 0 ? turned(image, 180) : image);
  return second.confidence > first.confidence ? second : first;
}

function paintedKinds(fnArray: number[]) {
  const OPS = pdfjs!.OPS;
  const images = new Set([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObject,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintSolidColorImageMask,
  ]);
  const drawing = new Set([
    OPS.constructPath,
    OPS.fill,
    OPS.eoFill,
    OPS.stroke,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
    OPS.shadingFill,
    OPS.showText,
    OPS.showSpacedText,
    OPS.nextLineShowText,
    OPS.nextLineSetSpacingShowText,
  ]);
  return { images: fnArray.some((fn) => images.has(fn)), drawing: fnArray.some((fn) => drawing.has(fn)) };
}

/**
 * The one image of a page that is nothing but that image, upright and covering the page (an office scanner's
 * page), or null. Any other operator (text, paths, masks, forms, graphics states) leaves the page to the renderer.
 */
async function wholePageImage(page: PdfPage, operators: OperatorList): Promise<PdfImage | null> {
  const OPS = pdfjs!.OPS;
  const neutral = new Set([OPS.dependency, OPS.beginMarkedContent, OPS.beginMarkedContentProps, OPS.endMarkedContent]);
  if (page.rotate % 360 !== 0) return null;
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack: number[][] = [];
  let found: { objId: string; ctm: number[] } | null = null;
  for (let index = 0; index < operators.fnArray.length; index++) {
    const fn = operators.fnArray[index];
    const args = operators.argsArray[index];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() || ctm;
    else if (fn === OPS.transform) {
      const [a, b, c, d, e, f] = args as number[];
      ctm = [
        ctm[0]! * a! + ctm[2]! * b!,
        ctm[1]! * a! + ctm[3]! * b!,
        ctm[0]! * c! + ctm[2]! * d!,
        ctm[1]! * c! + ctm[3]! * d!,
        ctm[0]! * e! + ctm[2]! * f! + ctm[4]!,
        ctm[1]! * e! + ctm[3]! * f! + ctm[5]!,
      ];
    } else if (fn === OPS.paintImageXObject && !found) found = { objId: args[0] as string, ctm };
    else if (!neutral.has(fn!)) return null;
  }
  if (!found) return null;
  const [a, b, c, d, e, f] = found.ctm as [number, number, number, number, number, number];
  const [x0, y0, x1, y1] = page.view as [number, number, number, number];
  const near = (value: number, edge: number, size: number) => Math.abs(value - edge) <= size * 0.01;
  if (b !== 0 || c !== 0 || a <= 0 || d <= 0) return null;
  if (!near(e, x0, x1 - x0) || !near(e + a, x1, x1 - x0) || !near(f, y0, y1 - y0) || !near(f + d, y1, y1 - y0)) return null;
  // An image used on more than one page is the document's ("g_" ids), kept with its common objects.
  const objects = found.objId.startsWith("g_") ? page.commonObjs : page.objs;
  const objId = found.objId;
  const image = await new Promise<PdfImage | null>((resolve) => objects.get(objId, resolve));
  return image && image.data && [1, 2, 3].includes(image.kind) ? image : null;
}

/** A decoded PDF image scaled down to width x height grey pixels, each the mean of the source pixels it covers. */
function scaledGray(image: PdfImage, width: number, height: number): Uint8Array {
  const { data, kind } = image;
  const sourceWidth = image.width;
  const rowBytes = kind === 1 ? (sourceWidth + 7) >> 3 : sourceWidth * (kind === 2 ? 3 : 4);
  const firstColumn = new Uint32Array(width + 1);
  for (let x = 0; x <= width; x++) firstColumn[x] = Math.floor((x * sourceWidth) / width);
  const sums = new Uint32Array(width);
  const gray = new Uint8Array(width * height);
  const sourceGray = (row: number, x: number) => {
    if (kind === 1) return (data[row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    const at = row + x * (kind === 2 ? 3 : 4);
    const value = (data[at]! * 77 + data[at + 1]! * 150 + data[at + 2]! * 29) >> 8;
    return kind === 2 ? value : 255 - (((255 - value) * data[at + 3]!) >> 8);
  };
  for (let y = 0; y < height; y++) {
    const fromRow = Math.floor((y * image.height) / height);
    const toRow = Math.max(fromRow + 1, Math.floor(((y + 1) * image.height) / height));
    sums.fill(0);
    for (let row = fromRow; row < toRow; row++) {
      const start = row * rowBytes;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let column = firstColumn[x]!; column < firstColumn[x + 1]!; column++) sum += sourceGray(start, column);
        sums[x] = sums[x]! + sum;
      }
    }
    for (let x = 0; x < width; x++) gray[y * width + x] = sums[x]! / ((toRow - fromRow) * (firstColumn[x + 1]! - firstColumn[x]!));
  }
  return gray;
}

/** Grey pixels of a page, or null when it paints nothing (or, with onlyWithImages, no image) worth reading. */
async function renderPage(pdf: PdfDocument, request: Extract<OcrRequest, { type: "pdf-page" }>): Promise<GrayImage | null> {
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
    const scan = await wholePageImage(page, operators);
    if (scan && scan.width >= width && scan.height >= height) return { width, height, data: scaledGray(scan, width, height) };
    const canvasFactory = pdf.canvasFactory as CanvasFactory;
    const target = canvasFactory.create(width, height);
    try {
      await page.render({ canvas: target.canvas as unknown as HTMLCanvasElement, canvasContext: target.context, viewport, background: "#ffffff" }).promise;
      const rgba = target.canvas.data();
      const gray = new Uint8Array(width * height);
      for (let pixel = 0, offset = 0; pixel < gray.length; pixel++, offset += 4) {
        gray[pixel] = (rgba[offset]! * 77 + rgba[offset + 1]! * 150 + rgba[offset + 2]! * 29) >> 8;
      }
      return { width, height, data: gray };
    } finally {
      canvasFactory.destroy(target);
    }
  } finally {
    page.cleanup();
  }
}

async function handle(request: OcrRequest): Promise<Omit<OcrReply, "id">> {
  switch (request.type) {
    case "recognize":
      return await recognize(request.image);
    case "open-pdf": {
      pdfjs ??= await import("pdfjs-dist/legacy/build/pdf.mjs");
      const { bytes, path } = request;
      // A file is read in ranges as pages need them (no auto-fetch of the rest), never whole.
      const from = bytes
        ? { data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
        : { url: pathToFileURL(path!), disableStream: true, disableAutoFetch: true };
      const pdf = await pdfjs.getDocument({ ...from, ...PDFJS_DOCUMENT_OPTIONS, wasmUrl: PDFJS_WASM_URL }).promise;
      documents.set(request.documentId, pdf);
      return { pages: pdf.numPages };
    }
    case "pdf-page": {
      const pdf = documents.get(request.documentId);
      if (!pdf) throw new Error("the document is not open");
      const image = await renderPage(pdf, request);
      return image ? await recognize(image) : { skipped: true };
    }
    case "close-pdf":
      await documents.get(request.documentId)?.destroy();
      documents.delete(request.documentId);
      return {};
    default:
      throw new Error(`unknown request ${(request as { type: string }).type}`);
  }
}

let chain = Promise.resolve();
process.on("message", (request: OcrRequest & { id: number }) => {
  const reply = (body: Omit<OcrReply, "id">) => process.send!({ id: request.id, ...body } satisfies OcrReply);
  chain = chain
    .then(() => handle(request).then(reply, (error: unknown) => reply({ error: String((error as Error | undefined)?.message || error) })))
    .then(() => {
      // A page's pixels are tens of megabytes outside the JavaScript heap: collect them now, not when the heap fills.
      globalThis.gc?.();
    });
});
// The conversion process going away (killed for time or memory, or with the server) ends this one too.
dieWithParent();
