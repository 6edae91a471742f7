import * as XLSX from "@e965/xlsx";
import mammoth from "mammoth";
import yauzl from "yauzl";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Readers other than the writers, to read each generated file back as a user's program would: mammoth for Word,
 * the zip's XML for PowerPoint, SheetJS for Excel (the writer is ExcelJS), pdf.js for PDF.
 */

/** A .docx as HTML (mammoth puts footnotes in an ordered list at the end, each `<li id="footnote-N">`). */
export async function docxHtml(bytes: Buffer): Promise<string> {
  return (await mammoth.convertToHtml({ buffer: bytes })).value;
}

export function docxFootnotes(html: string): string[] {
  return [...html.matchAll(/<li id="footnote-\d+"><p>(.*?) <a href/g)].map((match) => match[1]!);
}

/** Every entry of a zip, as text. */
export function zipEntries(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, string>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.readEntry();
    });
  });
}

const xmlText = (xml: string) => [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => match[1]!).join(" ");

/** A deck's slides in order, each with its text and its speaker notes' text. */
export async function pptxSlides(bytes: Buffer): Promise<Array<{ text: string; notes: string }>> {
  const entries = await zipEntries(bytes);
  const numbers = [...entries.keys()].flatMap((name) => /^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] ?? []).map(Number);
  return numbers
    .sort((a, b) => a - b)
    .map((n) => {
      const rels = entries.get(`ppt/slides/_rels/slide${n}.xml.rels`) ?? "";
      const notesFile = /Target="\.\.\/notesSlides\/(notesSlide\d+\.xml)"/.exec(rels)?.[1];
      // The notes page repeats the slide number in a field; only the notes body is the speaker's text.
      const notes = notesFile ? xmlText((entries.get(`ppt/notesSlides/${notesFile}`) ?? "").replace(/<a:fld[\s\S]*?<\/a:fld>/g, "")) : "";
      return { text: xmlText(entries.get(`ppt/slides/slide${n}.xml`)!), notes: notes.trim() };
    });
}

/** A workbook's sheets, each as rows of cell values (numbers as numbers). */
export function xlsxSheets(bytes: Buffer): Record<string, unknown[][]> {
  const workbook = XLSX.read(bytes);
  return Object.fromEntries(workbook.SheetNames.map((name) => [name, XLSX.utils.sheet_to_json<unknown[]>(workbook.Sheets[name]!, { header: 1 })]));
}

/** A PDF's text, page by page. */
export async function pdfPages(bytes: Buffer): Promise<string[]> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts");
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: `${fonts}/`, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(
      content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .replace(/[ \t]+/g, " "),
    );
  }
  await pdf.destroy();
  return pages;
}
