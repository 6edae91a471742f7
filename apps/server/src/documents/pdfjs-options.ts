import { createRequire } from "node:module";
import path from "node:path";

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));

/** How every PDF is opened with pdf.js: no eval, no fonts of its own or the system's, quiet; the package's font and CMap data. */
export const PDFJS_DOCUMENT_OPTIONS = {
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  verbosity: 0,
  standardFontDataUrl: `${path.join(pdfjsDir, "standard_fonts")}/`,
  cMapUrl: `${path.join(pdfjsDir, "cmaps")}/`,
  cMapPacked: true,
};

/** JPEG 2000 and JBIG2 images, common in scans, are decoded by pdf.js's WebAssembly modules (OCR renders them). */
export const PDFJS_WASM_URL = `${path.join(pdfjsDir, "wasm")}/`;

/** A stored PDF larger than this is read in ranges rather than whole (one read is quicker for small ones). */
export const RANGE_READ_FROM_BYTES = 4 * 1_048_576;
