import type { Citation } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import { markdownDocument } from "./markdown-document.ts";
import { docxFootnotes, docxHtml, pdfPages, pptxSlides, xlsxSheets } from "./test/read-back.ts";
import { writeDocument } from "./write-document.ts";

const passage = (n: number, filename: string, source: string): Citation => ({ n, fileId: n, filename, source, score: 0.9, content: "..." });
const CITED: Record<number, Citation> = { 1: passage(1, "q3-report.pdf", "q3-report.pdf/page 4"), 2: passage(2, "plan.docx", "plan.docx") };
const cite = (n: number) => CITED[n];

const MEMO = `# Board memo

Revenue grew **12%** in the third quarter [1], ahead of the plan [1, 2]. Figure [9] is not a citation.

## Next steps

- Hire two engineers
- Open the Lyon office
  - Sign the lease

| Region | Revenue | Growth |
|---|---|---|
| Europe | 1,200 | 8% |
| Asia | 900.5 | 20% |
`;

const DECK = `# Q3 review

For the board, 27 November.

## Revenue

- Up 12% [1]

Notes: Open with the Asia number.

## Hiring

- Two engineers

**Notes:** Mention Lyon.

## Risks

- Currency
`;

describe("the document writers, read back by other programs", () => {
  it("docx: the title, headings, lists and table as Word shows them, each citation a footnote naming the file and page", async () => {
    const html = await docxHtml(await writeDocument("docx", markdownDocument("Board memo", MEMO, cite)));
    expect(html).toContain("Board memo");
    expect(html).toContain("<h2>Next steps</h2>");
    expect(html).toContain("<li>Open the Lyon office<ul><li>Sign the lease</li></ul></li>");
    expect(html).toMatch(/<td><p>Asia<\/p><\/td><td><p>900\.5<\/p><\/td>/);
    expect(html).toContain("Figure [9] is not a citation.");
    // Word numbers footnotes by their marks: three marks, the first two naming the same page.
    expect(docxFootnotes(html)).toEqual(["q3-report.pdf, page 4", "q3-report.pdf, page 4", "plan.docx"]);
    expect(html.match(/Board memo/g)).toHaveLength(1); // the leading "# Board memo" is the title, not a second heading
  });

  it("pptx: a title slide, a slide per ## heading with its speaker notes, and a Sources slide", async () => {
    const slides = await pptxSlides(await writeDocument("pptx", markdownDocument("Q3 review", DECK, cite)));
    expect(slides.map((slide) => slide.text.split(" ")[0])).toEqual(["Q3", "Revenue", "Hiring", "Risks", "Sources"]);
    expect(slides[0]!.text).toContain("For the board, 27 November.");
    expect(slides[1]!.text).toContain("Up 12%");
    expect(slides[1]!.text).not.toContain("Open with the Asia number");
    expect(slides.map((slide) => slide.notes)).toEqual(["", "Open with the Asia number.", "Mention Lyon.", "", ""]);
    expect(slides[4]!.text).toBe("Sources [1] q3-report.pdf, page 4");
  });

  it("xlsx: each table a sheet named after its heading, numbers as numbers, and a Sources sheet", async () => {
    const content = `## Revenue by region\n\n| Region | Revenue | Growth |\n|---|---|---|\n| Europe | 1,200 | 8% |\n| Asia | 900.5 | 20% [1] |\n\n## Head count\n\n| Team | People |\n|---|---|\n| Sales | 14 |\n`;
    const sheets = xlsxSheets(await writeDocument("xlsx", markdownDocument("Q3 figures", content, cite)));
    expect(Object.keys(sheets)).toEqual(["Revenue by region", "Head count", "Sources"]);
    expect(sheets["Revenue by region"]).toEqual([
      ["Region", "Revenue", "Growth"],
      ["Europe", 1200, 0.08],
      ["Asia", 900.5, "20% [1]"],
    ]);
    expect(sheets["Head count"]).toEqual([
      ["Team", "People"],
      ["Sales", 14],
    ]);
    expect(sheets.Sources).toEqual([[1, "q3-report.pdf, page 4"]]);
  });

  it("pdf: the text, table and marks on the page, and the footnotes at the foot of the page that cites them", async () => {
    const pages = await pdfPages(await writeDocument("pdf", markdownDocument("Board memo", MEMO, cite)));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain("Revenue grew 12% in the third quarter [1], ahead of the plan [1][2].");
    expect(pages[0]).toContain("• Open the Lyon office");
    expect(pages[0]).toMatch(/Asia\s*900\.5\s*20%/);
    expect(pages[0]).toMatch(/1 q3-report\.pdf, page 4\s*2 plan\.docx\s*$/);
  });

  it("pdf: names in other alphabets and with any European accent print as typed; characters no font has become ?", async () => {
    const text = "Meeting with Dvořák in Łódź, Ελένη in Αθήνα and Дмитрий in Москва; then 東京 🚀.";
    const [page] = await pdfPages(
      await writeDocument("pdf", markdownDocument("Trip to Kraków", `## Plan\n\n${text}\n\n| City | Host |\n|---|---|\n| Brno | Šárka |`, cite)),
    );
    expect(page).toContain("Trip to Kraków");
    expect(page).toContain("Meeting with Dvořák in Łódź, Ελένη in Αθήνα and Дмитрий in Москва; then ?? ?.");
    expect(page).toMatch(/Brno\s*Šárka/);
  });

  it("pdf: a long text runs over pages, each page's footnotes under its own text", async () => {
    const paragraphs = Array.from(
      { length: 40 },
      (_, index) =>
        `Paragraph ${index + 1} says something long enough to fill a few lines of the page, about the plan and the budget${index === 30 ? " [2]" : index === 2 ? " [1]" : ""}.`,
    );
    const pages = await pdfPages(await writeDocument("pdf", markdownDocument("Long", paragraphs.join("\n\n"), cite)));
    expect(pages.length).toBeGreaterThan(1);
    const withFirst = pages.findIndex((page) => page.includes("Paragraph 3 "));
    const withSecond = pages.findIndex((page) => page.includes("Paragraph 31 "));
    expect(withSecond).toBeGreaterThan(withFirst);
    expect(pages[withFirst]).toMatch(/1 q3-report\.pdf, page 4\s*$/);
    expect(pages[withSecond]).toMatch(/2 plan\.docx\s*$/);
  });
});
