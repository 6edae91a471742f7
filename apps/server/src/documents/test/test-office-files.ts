// Builders of office files for tests and the eval (pptxgenjs and SheetJS write them; ODF is zipped from minimal XML,
// as no maintained JavaScript writer for it exists). Never imported by app code.
import * as XLSX from "@e965/xlsx";
import pptxgen from "pptxgenjs";
import yazl from "yazl";

export interface SlideContent {
  title: string;
  bullets?: string[];
  notes?: string;
}

export async function makePptx(slides: SlideContent[]): Promise<Buffer> {
  const deck = new pptxgen();
  for (const content of slides) {
    const slide = deck.addSlide();
    slide.addText(content.title, { x: 0.5, y: 0.3, w: 9, h: 1, fontSize: 28 });
    if (content.bullets?.length)
      slide.addText(
        content.bullets.map((text) => ({ text, options: { bullet: true, breakLine: true } })),
        { x: 0.5, y: 1.5, w: 9, h: 3 },
      );
    if (content.notes) slide.addNotes(content.notes);
  }
  return (await deck.write({ outputType: "nodebuffer" })) as Buffer;
}

const ODF_NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
].join(" ");

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

async function zipOdf(mimeType: string, body: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  // ODF wants the media type first and uncompressed.
  zip.addBuffer(Buffer.from(mimeType), "mimetype", { compress: false });
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimeType}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    ),
    "META-INF/manifest.xml",
  );
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NAMESPACES} office:version="1.2"><office:body>${body}</office:body></office:document-content>`,
    ),
    "content.xml",
  );
  zip.end();
  const parts: Buffer[] = [];
  for await (const part of zip.outputStream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const textBox = (paragraphs: string[]) =>
  `<draw:frame svg:width="20cm" svg:height="3cm"><draw:text-box>${paragraphs.map((text) => `<text:p>${escapeXml(text)}</text:p>`).join("")}</draw:text-box></draw:frame>`;

export function makeOdp(slides: SlideContent[]): Promise<Buffer> {
  const pages = slides.map(
    (slide, index) =>
      `<draw:page draw:name="page${index + 1}">${textBox([slide.title])}${slide.bullets?.length ? textBox(slide.bullets) : ""}${slide.notes ? `<presentation:notes>${textBox([slide.notes])}</presentation:notes>` : ""}</draw:page>`,
  );
  return zipOdf("application/vnd.oasis.opendocument.presentation", `<office:presentation>${pages.join("")}</office:presentation>`);
}

export interface OdtContent {
  heading: string;
  paragraphs: string[];
  items?: string[];
  table?: string[][];
}

export function makeOdt(parts: OdtContent[]): Promise<Buffer> {
  const body = parts.map((part) => {
    const items = part.items?.length
      ? `<text:list>${part.items.map((item) => `<text:list-item><text:p>${escapeXml(item)}</text:p></text:list-item>`).join("")}</text:list>`
      : "";
    const table = part.table
      ? `<table:table>${part.table.map((row) => `<table:table-row>${row.map((cell) => `<table:table-cell><text:p>${escapeXml(cell)}</text:p></table:table-cell>`).join("")}</table:table-row>`).join("")}</table:table>`
      : "";
    return `<text:h text:outline-level="1">${escapeXml(part.heading)}</text:h>${part.paragraphs.map((text) => `<text:p>${escapeXml(text)}</text:p>`).join("")}${items}${table}`;
  });
  return zipOdf("application/vnd.oasis.opendocument.text", `<office:text>${body.join("")}</office:text>`);
}

/** A workbook with one sheet per entry (rows of cells, the first row the header), written by SheetJS. */
export function makeWorkbook(sheets: Record<string, Array<Array<string | number>>>, bookType: "xlsx" | "biff8" | "ods"): Buffer {
  const workbook = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(workbook, { type: "buffer", bookType }) as Buffer;
}

/**
 * A Word 6 (Word 95 era) .doc as that Word saved it, reduced to what a reader needs: an OLE file whose WordDocument
 * stream starts with a Word 6 FIB (ident 0xA5DC, nFib 101, the language's lid) and holds the text as 8-bit characters
 * of the language's Windows code page at fcMin, paragraphs ended by \r. `field` adds a page-number field (instruction
 * and shown result) the way Word stores one.
 */
export function makeWord6Doc(paragraphs: string[], options: { lid?: number; codePage?: string } = {}): Buffer {
  const text = paragraphs.map((paragraph) => `${paragraph}\r`).join("");
  const encoded = options.codePage === "windows-1251" ? encodeCp1251(text) : Buffer.from(text, "latin1");
  const fcMin = 0x300;
  const stream = Buffer.alloc(fcMin + encoded.length + 0x100);
  stream.writeUInt16LE(0xa5dc, 0x00); // wIdent: Word 6
  stream.writeUInt16LE(101, 0x02); // nFib
  stream.writeUInt16LE(options.lid ?? 0x0409, 0x06);
  stream.writeUInt32LE(fcMin, 0x18);
  stream.writeUInt32LE(fcMin + encoded.length, 0x1c);
  stream.writeUInt32LE(stream.length, 0x20);
  stream.writeUInt32LE(encoded.length, 0x34); // ccpText
  encoded.copy(stream, fcMin);
  const cfb = XLSX.CFB.utils.cfb_new();
  XLSX.CFB.utils.cfb_add(cfb, "/WordDocument", stream);
  return Buffer.from(XLSX.CFB.write(cfb, { type: "buffer" }) as Uint8Array);
}

/** Cyrillic in Windows-1251 (А-я at 0xC0-0xFF, Ё/ё at 0xA8/0xB8), enough for the tests' Russian. */
function encodeCp1251(text: string): Buffer {
  return Buffer.from(
    Array.from(text, (character) => {
      const code = character.charCodeAt(0);
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      if (character === "Ё") return 0xa8;
      if (character === "ё") return 0xb8;
      return code < 0x80 ? code : 0x3f;
    }),
  );
}
