// Builders of images and scanned PDFs of known text, for tests and the eval (never imported by app code).
import { createRequire } from "node:module";
import path from "node:path";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { PDFDocument, setTextRenderingMode, StandardFonts, TextRenderingMode } from "pdf-lib";

const require = createRequire(import.meta.url);
// pdf.js ships Liberation Sans, so renders look the same on every machine whatever fonts it has installed.
const FONT_FILE = path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts", "LiberationSans-Regular.ttf");
const FONT_FAMILY = "SAGE Test Sans";
let fontRegistered = false;

export interface TextImageOptions {
  dpi?: number;
  /** Point size of the text. */
  fontSize?: number;
  /** Page size in inches; defaults to a strip just large enough for the lines. */
  page?: { width: number; height: number };
}

/** White page, black text: one line per entry, as a printed page scanned at `dpi` would look. Returns PNG bytes. */
export function renderTextImage(lines: string[], options: TextImageOptions = {}): Buffer {
  if (!fontRegistered) fontRegistered = GlobalFonts.registerFromPath(FONT_FILE, FONT_FAMILY) !== null;
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
  context.font = `${fontPx}px "${FONT_FAMILY}"`;
  context.textBaseline = "top";
  lines.forEach((line, index) => context.fillText(line, margin, margin + index * lineHeight));
  return canvas.toBuffer("image/png");
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
