// Builders of images and scanned PDFs of known text, for tests and the eval (never imported by app code).
import { createRequire } from "node:module";
import path from "node:path";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import {
  concatTransformationMatrix,
  degrees,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  setTextRenderingMode,
  StandardFonts,
  TextRenderingMode,
} from "pdf-lib";

const require = createRequire(import.meta.url);
// pdf.js ships Liberation Sans, so renders look the same on every machine whatever fonts it has installed.
const FONT_FILE = path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts", "LiberationSans-Regular.ttf");
const FONT_FAMILY = "SAGE Test Sans";
const registeredFonts = new Map<string, string>();

/** Registers a font file once and gives its family name for the canvas. */
function fontFamily(file: string): string {
  let family = registeredFonts.get(file);
  if (!family) {
    family = file === FONT_FILE ? FONT_FAMILY : `SAGE Test ${registeredFonts.size}`;
    GlobalFonts.registerFromPath(file, family);
    registeredFonts.set(file, family);
  }
  return family;
}

export interface TextImageOptions {
  dpi?: number;
  /** Point size of the text. */
  fontSize?: number;
  /** Page size in inches; defaults to a strip just large enough for the lines. */
  page?: { width: number; height: number };
  /** A font file for scripts Liberation Sans lacks (Hebrew in DejaVu Sans). */
  fontFile?: string;
}

/** White page, black text: one line per entry, as a printed page scanned at `dpi` would look. Returns PNG bytes. */
export function renderTextImage(lines: string[], options: TextImageOptions = {}): Buffer {
  return drawTextPage(lines, options).toBuffer("image/png");
}

function drawTextPage(lines: string[], options: TextImageOptions) {
  const family = fontFamily(options.fontFile ?? FONT_FILE);
  const dpi = options.dpi ?? 300;
  const fontPx = ((options.fontSize ?? 12) * dpi) / 72;
  const lineHeight = fontPx * 1.5;
  const margin = dpi * 0.5;
  const width = Math.round(options.page ? options.page.width * dpi : Math.max(...lines.map((line) => line.length)) * fontPx * 0.6 + margin * 2);
  const height = Math.round(options.page ? options.page.height * dpi : lines.length * lineHeight + margin * 2);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, width, height);
  context.fillStyle = "#000000";
  context.font = `${fontPx}px "${family}"`;
  context.textBaseline = "top";
  lines.forEach((line, index) => context.fillText(line, margin, margin + index * lineHeight));
  return canvas;
}

/** An A4 text page at 300 dpi (10 pt), the eval's clean scan. */
export const renderA4Page = (lines: string[], dpi = 300) => renderTextImage(lines, { dpi, fontSize: 10, page: { width: 8.27, height: 11.69 } });

/**
 * A PDF whose pages are only images (as a scanner makes): no text layer at all. `hiddenText[i]`, when given, is
 * laid invisibly over page i, the way a broken text layer sits over what the page shows.
 */
export async function makeScannedPdf(pageImages: Buffer[], hiddenText: string[][] = []): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [index, png] of pageImages.entries()) {
    const image = await pdf.embedPng(png);
    const page = pdf.addPage([595, 842]);
    page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
    const lines = hiddenText[index] ?? [];
    if (lines.length > 0) page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
    lines.forEach((line, row) => page.drawText(line, { x: 36, y: 800 - row * 15, size: 10, font }));
  }
  return Buffer.from(await pdf.save());
}

/** The page turned upside down, as a sheet fed into the scanner the wrong way round. */
function upsideDown(page: ReturnType<typeof drawTextPage>) {
  const turned = createCanvas(page.width, page.height);
  const context = turned.getContext("2d");
  context.translate(page.width, page.height);
  context.rotate(Math.PI);
  context.drawImage(page, 0, 0);
  return turned;
}

/**
 * An image-only PDF as an office scanner makes it: each page one black-and-white A4 image (1 bit a pixel, Flate)
 * at `dpi`, drawn over the whole page, no text layer. `upsideDown` scans each sheet the wrong way round and sets the
 * page's /Rotate to 180, so a reader shows it upright only if it honours the rotation.
 */
export async function makeBilevelScanPdf(pages: string[][], options: { dpi?: number; upsideDown?: boolean } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const lines of pages) {
    const drawn = drawTextPage(lines, { dpi: options.dpi ?? 300, fontSize: 10, page: { width: 8.27, height: 11.69 } });
    const canvas = options.upsideDown ? upsideDown(drawn) : drawn;
    const { width, height } = canvas;
    const rgba = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    const rowBytes = Math.ceil(width / 8);
    const bits = new Uint8Array(rowBytes * height).fill(0xff);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) if (rgba[(y * width + x) * 4]! < 128) bits[y * rowBytes + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    const image = pdf.context.register(
      pdf.context.flateStream(bits, { Type: "XObject", Subtype: "Image", Width: width, Height: height, ColorSpace: "DeviceGray", BitsPerComponent: 1 }),
    );
    const page = pdf.addPage([595, 842]);
    const name = page.node.newXObject("Scan", image);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(595, 0, 0, 842, 0, 0), drawObject(name), popGraphicsState());
    if (options.upsideDown) page.setRotation(degrees(180));
  }
  return Buffer.from(await pdf.save());
}
