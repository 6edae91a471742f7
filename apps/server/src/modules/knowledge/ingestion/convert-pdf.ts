import { createRequire } from "node:module";
import path from "node:path";
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
 * Extracts text page by page with pdf.js, rebuilding lines from the glyph positions so table rows stay on one
 * line. Pages are released as soon as they are read, so a long PDF never holds more than one page's objects.
 */
export async function convertPdf(bytes: Uint8Array): Promise<ExtractedDocument> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let pdf;
  try {
    pdf = await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      standardFontDataUrl,
    }).promise;
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/password/i.test(message)) throw new ConversionError("The PDF is password-protected");
    throw new ConversionError(`The PDF could not be read: ${message}`);
  }
  try {
    const sections: ExtractedSection[] = [];
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      const text = pageText(content.items.filter((item) => "str" in item) as PositionedText[]);
      page.cleanup();
      if (text.trim()) sections.push({ source: `page ${pageNumber}`, text });
    }
    if (sections.length === 0) return { sections, notProcessedReason: SCANNED_PDF_REASON };
    return { sections };
  } finally {
    await pdf.destroy();
  }
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
