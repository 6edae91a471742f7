// Builders of real documents for tests (pdf-lib and docx are devDependencies; never imported by app code).
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun, HeadingLevel } from "docx";
import { beginText, endText, moveText, PDFDocument, PDFHexString, PDFString, setFontAndSize, showText, StandardFonts } from "pdf-lib";

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

/**
 * A Japanese PDF as Japanese office software writes one: text in a standard Japanese font the file does not embed
 * (HeiseiMin-W3, Adobe-Japan1, UCS-2 codes), which readers map to Unicode with their own CMaps. The machine needs
 * no CJK font file to make it; pdf.js reads its text with the CMaps it ships.
 */
export async function makeJapanesePdf(
  pages: string[][],
  options: { standardFontLines?: string[]; encoding?: "UniJIS-UCS2-H" | "UniJIS-UTF16-H" } = {},
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const standardFonts = await Promise.all([StandardFonts.TimesRoman, StandardFonts.Helvetica, StandardFonts.Courier].map((name) => pdf.embedFont(name)));
  const font = pdf.context.register(
    pdf.context.obj({
      Type: "Font",
      Subtype: "Type0",
      BaseFont: "HeiseiMin-W3",
      Encoding: options.encoding ?? "UniJIS-UCS2-H",
      DescendantFonts: [
        pdf.context.obj({
          Type: "Font",
          Subtype: "CIDFontType0",
          BaseFont: "HeiseiMin-W3",
          CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Japan1"), Supplement: 2 },
          FontDescriptor: pdf.context.obj({
            Type: "FontDescriptor",
            FontName: "HeiseiMin-W3",
            Flags: 6,
            FontBBox: [-123, -257, 1001, 910],
            ItalicAngle: 0,
            Ascent: 857,
            Descent: -143,
            CapHeight: 718,
            StemV: 69,
          }),
          DW: 1000,
        }),
      ],
    }),
  );
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    const name = page.node.newFontDictionary("F1", font);
    // Lines in the standard Type1 fonts first (Times, Helvetica, Courier in turn), as a mixed-font sample page has.
    const latin = options.standardFontLines ?? [];
    latin.forEach((line, row) => page.drawText(line, { x: 50, y: 780 - row * 20, size: 12, font: standardFonts[row % standardFonts.length]! }));
    lines.forEach((line, index) => {
      const ucs2 = Array.from(line, (character) => character.charCodeAt(0).toString(16).padStart(4, "0")).join("");
      const y = 780 - (latin.length + index) * 20;
      page.pushOperators(beginText(), setFontAndSize(name, 12), moveText(50, y), showText(PDFHexString.of(ucs2)), endText());
    });
  }
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
