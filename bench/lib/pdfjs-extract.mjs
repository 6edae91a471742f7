// The limit for PDF ingestion: pdf.js (the same build the converter uses) reading every page's text, alone in
// a fresh process. Prints {ms, pages, chars}; ms counts from opening the document to the last page's text.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./server.mjs";

const require = createRequire(path.join(ROOT, "apps/server/package.json"));
const { getDocument } = await import(pathToFileURL(require.resolve("pdfjs-dist/legacy/build/pdf.mjs")).href);
const data = new Uint8Array(readFileSync(process.argv[2]));
const startedAt = performance.now();
const pdf = await getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
let chars = 0;
for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
  const page = await pdf.getPage(pageNumber);
  const content = await page.getTextContent();
  for (const item of content.items) chars += item.str?.length ?? 0;
  page.cleanup();
}
const pages = pdf.numPages;
await pdf.destroy();
console.log(JSON.stringify({ ms: performance.now() - startedAt, pages, chars }));
