// Builders of real documents for tests (pdf-lib and docx are devDependencies; never imported by app code).
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun, HeadingLevel } from "docx";
import { PDFDocument, StandardFonts } from "pdf-lib";

/** A PDF with one block of lines per page; `table` rows are drawn as separate cells on page `tablePage`. */
export async function makePdf(pages: string[][], table?: { page: number; rows: string[][] }): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pages.forEach((lines, index) => {
    const page = pdf.addPage([595, 842]);
    let y = 780;
    for (const line of lines) {
      page.drawText(line, { x: 50, y, size: 12, font });
      y -= 18;
    }
    if (table && table.page === index + 1) {
      y -= 20;
      for (const row of table.rows) {
        row.forEach((cell, column) => page.drawText(cell, { x: 50 + column * 150, y, size: 12, font }));
        y -= 18;
      }
    }
  });
  return Buffer.from(await pdf.save());
}

/** A PDF whose pages carry no text at all (as a scan without OCR would). */
export async function makeImageOnlyPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawRectangle({ x: 50, y: 50, width: 400, height: 600 });
  return Buffer.from(await pdf.save());
}

export async function makeDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Quarterly Plan", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun("The board approved the Falcon expansion for the northern region.")] }),
          new Paragraph({ text: "Buy more telescopes", bullet: { level: 0 } }),
          new Paragraph({ text: "Hire two astronomers", bullet: { level: 0 } }),
          new Paragraph({ text: "Budget", heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [new TableRow({ children: [cell("Item"), cell("Cost")] }), new TableRow({ children: [cell("Telescope"), cell("4200 EUR")] })],
          }),
        ],
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(document));
}
