import { readdirSync } from "node:fs";
import { SUPPORTED_UPLOAD_EXTENSIONS } from "@sage/contracts/knowledge";
import { describe, expect, it } from "vitest";
import { chunkSections } from "../chunker.ts";
import { convertFile, supportedExtension } from "./convert-file.ts";
import { convertHtml } from "./convert-html.ts";
import { SCANNED_PDF_REASON } from "./convert-pdf.ts";
import { decodeText } from "./decode-text.ts";
import { downloadContentType } from "../download-content-type.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { makeDocx, makeImageOnlyPdf, makePdf } from "../test/test-documents.ts";

describe("converters", () => {
  it("reads a multi-page PDF page by page, keeping table rows on one line, without OCR", async () => {
    const pdf = await makePdf(
      [["Introduction to the Orion report.", "It covers three regions."], ["Second page about sales figures."], ["Closing remarks on page three."]],
      {
        page: 2,
        rows: [
          ["Region", "Q1", "Q2"],
          ["North", "120", "140"],
        ],
      },
    );
    const document = await convertFile("pdf", pdf);
    expect(document.notProcessedReason).toBeUndefined();
    expect(document.ocrPages).toBeUndefined();
    expect(document.sections.map((section) => section.source)).toEqual(["page 1", "page 2", "page 3"]);
    expect(document.sections[0]!.text).toBe("Introduction to the Orion report.\nIt covers three regions.");
    expect(document.sections[1]!.text).toContain("Region Q1 Q2\nNorth 120 140");
    expect(document.sections[2]!.text).toBe("Closing remarks on page three.");
  });

  it("reports a PDF without a text layer or any recognisable words as not processed, with the reason", async () => {
    const document = await convertFile("pdf", await makeImageOnlyPdf());
    expect(document.sections).toEqual([]);
    expect(document.notProcessedReason).toBe(SCANNED_PDF_REASON);
  });

  it("refuses bytes that are not a PDF with a clear error", async () => {
    await expect(convertFile("pdf", Buffer.from("not a pdf at all"))).rejects.toThrow(/The PDF could not be read/);
  });

  it("keeps a DOCX's headings, list items and table rows as text", async () => {
    const document = await convertFile("docx", await makeDocx());
    const text = document.sections.map((section) => section.text).join("\n\n");
    expect(text).toContain("# Quarterly Plan");
    expect(text).toContain("- Buy more telescopes\n- Hire two astronomers");
    expect(text).toContain("| Item | Cost |\n| Telescope | 4200 EUR |");
    expect(document.sections.map((section) => section.source)).toEqual(["Quarterly Plan", "Budget"]);
  });

  it("decodes UTF-8, UTF-16 with a BOM (both byte orders) and Latin-1 text", () => {
    const text = "Café crème – naïve façade";
    expect(decodeText(Buffer.from(text, "utf8"))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]))).toBe(text);
    const bigEndian = Buffer.from(text, "utf16le").swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]))).toBe(text);
    expect(decodeText(Buffer.from("Café crème naïve façade", "latin1"))).toBe("Café crème naïve façade");
  });

  it("checks upload extensions case-insensitively", () => {
    expect(supportedExtension("Report.PDF")).toBe("pdf");
    expect(supportedExtension("notes.Txt")).toBe("txt");
    expect(supportedExtension("old.doc")).toBe("doc");
    expect(supportedExtension("Budget.XLSX")).toBe("xlsx");
    expect(supportedExtension("scan.TIF")).toBe("tif");
    expect(supportedExtension("sheet.numbers")).toBeNull();
    expect(supportedExtension("no-extension")).toBeNull();
  });

  it("gives every supported type a download content type, and HTML as inert text", () => {
    for (const extension of SUPPORTED_UPLOAD_EXTENSIONS) expect(downloadContentType(`file.${extension}`)).not.toBe("application/octet-stream");
    expect(downloadContentType("deck.PPTX")).toBe("application/vnd.openxmlformats-officedocument.presentationml.presentation");
    expect(downloadContentType("page.html")).toBe("text/plain; charset=utf-8");
    expect(downloadContentType("tool.exe")).toBe("application/octet-stream");
  });

  it("reads a legacy .doc from the shared fixtures when one is present", async (context) => {
    const dir = "/work/shared/eval/docextract-fixtures";
    const find = (folder: string): string | undefined => {
      try {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const full = `${folder}/${entry.name}`;
          if (entry.isDirectory()) {
            const found = find(full);
            if (found) return found;
          } else if (entry.name.toLowerCase().endsWith(".doc")) return full;
        }
      } catch {
        return undefined;
      }
      return undefined;
    };
    const docPath = find(dir);
    if (!docPath) return context.skip();
    const { readFileSync } = await import("node:fs");
    const document = await convertFile("doc", readFileSync(docPath));
    expect(
      document.sections
        .map((section) => section.text)
        .join(" ")
        .trim().length,
    ).toBeGreaterThan(0);
  });
});

describe("html", () => {
  it("reduces a page to its article and keeps headings, lists and tables", async () => {
    const filler = "The lighthouse keeper recorded the weather every hour for forty years. ".repeat(8);
    const html = `<html><head><title>Keeper's Log</title><script>var tracking = 1;</script></head><body>
      <nav><a href="/">Home</a> <a href="/about">About us</a></nav>
      <article><h1>Keeper's Log</h1><p>${filler}</p><h2>Tools</h2><ul><li>Barometer</li><li>Logbook</li></ul>
      <table><tr><th>Year</th><th>Storms</th></tr><tr><td>1901</td><td>12</td></tr></table><p>${filler}</p></article>
      <footer>Copyright 2024 Lighthouse Society</footer></body></html>`;
    const document = await convertHtml(html);
    const text = document.sections.map((section) => section.text).join("\n\n");
    expect(text).toContain("The lighthouse keeper recorded the weather");
    expect(text).toContain("- Barometer\n- Logbook");
    expect(text).toContain("| Year | Storms |\n| 1901 | 12 |");
    expect(text).not.toContain("tracking");
    expect(text).not.toContain("About us");
    expect(document.sections.map((section) => section.source)).toContain("Tools");
  });

  it("numbers ordered lists and nests sub-lists", async () => {
    expect(await htmlToMarkdown("<ol><li>One<ul><li>Inner</li></ul></li><li>Two</li></ol>")).toBe("1. One\n  - Inner\n2. Two");
  });
});

describe("chunker", () => {
  const sentence = (index: number) => `Sentence number ${index} talks about topic ${index} in some detail.`;

  it("packs paragraphs into chunks of about the target size, none over the maximum, with overlap", () => {
    const paragraphs = Array.from({ length: 12 }, (_, p) => Array.from({ length: 5 }, (_, s) => sentence(p * 5 + s)).join(" "));
    const chunks = chunkSections([{ source: "page 1", text: paragraphs.join("\n\n") }]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(1200);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.content.length).toBeGreaterThanOrEqual(600);
    expect(chunks.map((chunk) => chunk.position)).toEqual(chunks.map((_, index) => index));
    // Every sentence survives, and consecutive chunks share text.
    const all = chunks.map((chunk) => chunk.content).join(" ");
    for (let index = 0; index < 60; index++) expect(all).toContain(sentence(index));
    const firstEnd = chunks[0]!.content.slice(-40);
    expect(chunks[1]!.content).toContain(firstEnd);
  });

  it("never crosses sections, so each chunk keeps its page or heading", () => {
    const chunks = chunkSections([
      { source: "page 1", text: "Alpha facts." },
      { source: "page 2", text: "Beta facts." },
    ]);
    expect(chunks).toEqual([
      { position: 0, source: "page 1", content: "Alpha facts." },
      { position: 1, source: "page 2", content: "Beta facts." },
    ]);
  });

  it("breaks an overlong paragraph at sentences and an overlong word at the maximum", () => {
    const long = Array.from({ length: 40 }, (_, index) => sentence(index)).join(" ");
    const chunks = chunkSections([{ source: "", text: `${long}\n\n${"x".repeat(3000)}` }]);
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(1200);
    expect(chunks.map((chunk) => chunk.content).join(" ")).toContain(sentence(39));
  });
});
