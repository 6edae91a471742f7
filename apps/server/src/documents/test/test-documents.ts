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

/** A .docx whose word/document.xml breaks off mid-paragraph (a file cut short by a bad sync): the XML parser fails. */
export async function makeBrokenDocx(): Promise<Buffer> {
  const { default: yazl } = await import("yazl");
  const zip = new yazl.ZipFile();
  const xml = '<?xml version="1.0" encoding="UTF-8"?>';
  zip.addBuffer(
    Buffer.from(
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    "[Content_Types].xml",
  );
  zip.addBuffer(
    Buffer.from(
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "_rels/.rels",
  );
  zip.addBuffer(
    Buffer.from(
      `${xml}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Board minutes</w:t></w:r></w:p><w:p><w:r></w:body></w:document>`,
    ),
    "word/document.xml",
  );
  zip.end();
  const parts: Buffer[] = [];
  for await (const part of zip.outputStream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}
