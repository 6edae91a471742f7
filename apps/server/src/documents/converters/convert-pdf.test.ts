import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { convertPdf, prepareSpareReaders } from "./convert-pdf.ts";
import { closeOcr } from "../ocr/ocr-engine.ts";
import { makeJapanesePdf, makePdf } from "../test/test-documents.ts";
import { makeBilevelScanPdf, makeScannedPdf, renderA4Page } from "../test/test-images.ts";

afterAll(closeOcr);

const scan = (lines: string[]) => renderA4Page(lines, 150);

describe("PDF text with a reader started ahead", () => {
  it("reads each document with its own bytes, one after another, and a broken one in between fails alone", async () => {
    prepareSpareReaders();
    const first = await convertPdf(await makePdf([["Minutes of the heron survey."]]));
    await expect(convertPdf(Buffer.from("not a PDF at all"))).rejects.toThrow("The PDF could not be read");
    const second = await convertPdf(await makePdf([["Budget for the egret census."], ["Second page about storks."]]));
    expect(first.sections.map((section) => section.text)).toEqual(["Minutes of the heron survey."]);
    expect(second.sections.map((section) => section.text)).toEqual(["Budget for the egret census.", "Second page about storks."]);
  });
});

// OCR takes seconds a page, and much longer on a busy machine.
describe("PDF pages read by OCR", () => {
  it("reads an image-only PDF page by page and says which pages were recognised", async () => {
    const pdf = await makeScannedPdf([scan(["The signed lease for the Orion warehouse."]), scan(["Payment is due on 15 April 2025."])]);
    const document = await convertPdf(pdf);
    expect(document.sections.map((section) => section.source)).toEqual(["page 1", "page 2"]);
    expect(document.sections[0]!.text).toContain("The signed lease for the Orion warehouse.");
    expect(document.sections[1]!.text).toContain("Payment is due on 15 April 2025.");
    expect(document.ocrPages).toEqual([1, 2]);
    expect(document.notProcessedReason).toBeUndefined();
  });

  it("reads full-page scans at 300 dpi, in colour and in black and white, and one scanned upside down and turned", async () => {
    const colour = await convertPdf(await makeScannedPdf([renderA4Page(["The Lyra lease ends in March."], 300)]));
    const bilevel = await convertPdf(await makeBilevelScanPdf([["The Draco invoice is overdue."], ["Call the Draco auditors."]]));
    // Upside down in the file, upright on screen: read only if the page's rotation is honoured.
    const turned = await convertPdf(await makeBilevelScanPdf([["The Cygnus board meets Friday."]], { upsideDown: true }));
    expect(colour.sections[0]!.text).toContain("The Lyra lease ends in March.");
    expect(bilevel.sections.map((section) => [section.source, section.text])).toEqual([
      ["page 1", expect.stringContaining("The Draco invoice is overdue.")],
      ["page 2", expect.stringContaining("Call the Draco auditors.")],
    ]);
    expect(turned.sections[0]!.text).toContain("The Cygnus board meets Friday.");
    expect([colour.ocrPages, bilevel.ocrPages, turned.ocrPages]).toEqual([[1], [1, 2], [1]]);
  });

  it("reads a sheet scanned upside down with no page rotation to undo it (orientation detection)", async () => {
    const upsideDown = await sharp(scan(["The Perseus lease ends in May."]))
      .rotate(180)
      .png()
      .toBuffer();
    const document = await convertPdf(await makeScannedPdf([upsideDown]));
    expect(document.sections[0]!.text).toContain("The Perseus lease ends in May.");
    expect(document.ocrPages).toEqual([1]);
  });

  it("reads a scan whose pages show one and the same image (pdf.js keeps it with the document, not the page)", async () => {
    const pdf = await PDFDocument.create();
    const form = await pdf.embedPng(renderA4Page(["The Orion lease ends in March."], 300));
    for (let index = 0; index < 2; index++) pdf.addPage([595, 842]).drawImage(form, { x: 0, y: 0, width: 595, height: 842 });
    const document = await convertPdf(await pdf.save());
    expect(document.ocrFailedPages).toBeUndefined();
    expect(document.sections.map((section) => [section.source, section.text])).toEqual([
      ["page 1", expect.stringContaining("The Orion lease ends in March.")],
      ["page 2", expect.stringContaining("The Orion lease ends in March.")],
    ]);
  });

  it("reads a large stored scan by its path, opening it again in each new OCR process", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "sage-pdf-path-"));
    try {
      const file = path.join(folder, "scan.pdf");
      const pdf = await PDFDocument.load(await makeScannedPdf([scan(["The Kestrel contract renews in June."]), scan(["Notice must be given in writing."])]));
      // 5 MB of attached data no page shows: past the size from which a stored PDF's text is read in its own process.
      pdf.context.register(pdf.context.stream(randomBytes(5 * 1_048_576)));
      writeFileSync(file, await pdf.save());
      expect(statSync(file).size).toBeGreaterThan(5 * 1_048_576);
      // One page per process: the second page is read by a new process that must open the file again.
      const document = await convertPdf({ path: file }, { pagesPerProcess: 1 });
      expect(document.sections.map((section) => section.source)).toEqual(["page 1", "page 2"]);
      expect(document.sections[0]!.text).toContain("The Kestrel contract renews in June.");
      expect(document.sections[1]!.text).toContain("Notice must be given in writing.");
      expect(document.ocrPages).toEqual([1, 2]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("recognises only the pages without a text layer", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([595, 842]).drawText("Typed cover letter about the Vega merger.", { x: 50, y: 780, size: 12, font });
    const scanned = await pdf.embedPng(scan(["Handwritten approval of the Vega merger."]));
    pdf.addPage([595, 842]).drawImage(scanned, { x: 0, y: 0, width: 595, height: 842 });
    const document = await convertPdf(await pdf.save());
    expect(document.sections.map((section) => [section.source, section.text])).toEqual([
      ["page 1", "Typed cover letter about the Vega merger."],
      ["page 2", expect.stringContaining("approval of the Vega merger.")],
    ]);
    expect(document.ocrPages).toEqual([2]);
  });

  it("reads a scanned page that carries a few stamped words of text layer", async () => {
    const document = await convertPdf(await makeScannedPdf([scan(["The auditor signed the Orion accounts."])], [["Page 3"]]));
    expect(document.sections[0]!.text).toContain("The auditor signed the Orion accounts.");
    expect(document.ocrPages).toEqual([1]);
  });

  it("keeps a Japanese text layer (with Latin, digits and brackets among the kana) as it is, without OCR", async () => {
    const lines = [
      "ゾルゲ事件と尾崎秀実（1941年）",
      "GHQの資料によれば、事件の全容は戦後に明らかになった。",
      "第2章では「国際諜報団」の活動を２０２４年の研究に基づいて説明する。",
    ];
    const document = await convertPdf(await makeJapanesePdf([lines]));
    expect(document.sections).toEqual([{ source: "page 1", text: lines.join("\n") }]);
    expect(document.ocrPages).toBeUndefined();
  });

  it("keeps a page mixing standard Type1 fonts with a Japanese CID font OCR cannot draw (the mixedfonts.pdf case)", async () => {
    const latin = ["Times-Roman (Type1)", "Helvetica (Type1)", "Courier (Type1)"];
    const japanese = ["KozMinPro (CID-0): 日本語のテキスト（2024年版）", "「混合フォント」のサンプル：Type1とCIDを1ページに。"];
    const document = await convertPdf(await makeJapanesePdf([japanese], { standardFontLines: latin, encoding: "UniJIS-UTF16-H" }));
    // Before, the page was judged unreadable, rendered for OCR without its Japanese glyphs, and stored with no text.
    expect(document.sections).toEqual([{ source: "page 1", text: [...latin, ...japanese].join("\n") }]);
    expect(document.ocrPages).toBeUndefined();
  });

  it("keeps a short typed page as it is, without OCR", async () => {
    const document = await convertPdf(await makePdf([["Appendix B"]]));
    expect(document.sections).toEqual([{ source: "page 1", text: "Appendix B" }]);
    expect(document.ocrPages).toBeUndefined();
  });

  it("replaces a text layer of glyph codes (a font without a Unicode map) by what the page shows", async () => {
    const garbage = ["7KH FDVK DQG FDVK HTXLYDOHQWV URVH E\\ WZHOYH SHU FHQW", "LQ WKH ILUVW TXDUWHU RI WKH \\HDU"];
    const pdf = await makeScannedPdf([scan(["The cash and cash equivalents rose by twelve per cent", "in the first quarter of the year."])], [garbage]);
    const document = await convertPdf(pdf);
    expect(document.sections).toHaveLength(1);
    expect(document.sections[0]!.text).toContain("cash and cash equivalents rose by twelve per cent");
    expect(document.sections[0]!.text).not.toContain("FDVK");
    expect(document.ocrPages).toEqual([1]);
  });

  it("gives up a page over the OCR time limit and says so", async () => {
    const document = await convertPdf(await makeScannedPdf([scan(["Too slow to read."])]), { pageTimeoutMs: 1 });
    expect(document.sections).toEqual([]);
    expect(document.ocrFailedPages).toEqual([1]);
    expect(document.notProcessedReason).toMatch(/could not finish page 1 within its limits/);
  });
});
