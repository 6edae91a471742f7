import { createRequire } from "node:module";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";
import { makeDocx } from "../test/test-documents.ts";

const { CFB } = createRequire(import.meta.url)("@e965/xlsx") as typeof import("@e965/xlsx");

/** An OLE compound file with the given streams (SheetJS's CFB writer). */
function compoundFile(streams: Record<string, Buffer>): Buffer {
  const file = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(file, `/${name}`, content);
  return Buffer.from(CFB.write(file, { type: "buffer" }) as Uint8Array);
}

/** What Office writes for a docx/xlsx/pptx saved with a password (MS-OFFCRYPTO agile encryption): no zip at all. */
const encryptedOoxml = () =>
  compoundFile({
    EncryptionInfo: Buffer.concat([Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]), Buffer.from('<?xml version="1.0"?><encryption/>')]),
    EncryptedPackage: Buffer.alloc(6000, 0x5a),
  });

/** A Word 97-2003 file whose File Information Block says fEncrypted (Word's "Encrypt with password", RC4). */
function encryptedDoc(): Buffer {
  const word = Buffer.alloc(8192, 0);
  word.writeUInt16LE(0xa5ec, 0); // wIdent
  word.writeUInt16LE(0x00c1, 2); // nFib: Word 97
  word.writeUInt16LE(0x0100 | 0x0200, 0x0a); // fEncrypted, fWhichTblStm
  return compoundFile({ WordDocument: word, "1Table": Buffer.alloc(4096, 0x33) });
}

/** A PDF with a standard security handler whose user password is not empty: pdf.js cannot open it without one. */
async function encryptedPdf(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([595, 842]).drawText("Confidential board minutes.", { x: 50, y: 780, size: 12, font });
  const original = Buffer.from(await document.save({ useObjectStreams: false })).toString("latin1");
  const size = Number(/\/Size (\d+)/.exec(original)![1]);
  const root = /\/Root (\d+ \d+ R)/.exec(original)![1];
  const previous = Number(/startxref\s+(\d+)/.exec(original)![1]);
  const hex = (byte: string) => `<${byte.repeat(32)}>`;
  const object = `${size} 0 obj\n<< /Filter /Standard /V 1 /R 2 /O ${hex("4f")} /U ${hex("a7")} /P -44 >>\nendobj\n`;
  const objectOffset = original.length;
  const xrefOffset = objectOffset + object.length;
  const update = [
    object,
    `xref\n${size} 1\n${String(objectOffset).padStart(10, "0")} 00000 n \n`,
    `trailer\n<< /Size ${size + 1} /Root ${root} /Encrypt ${size} 0 R /ID [${hex("12").slice(0, 34)}> ${hex("12").slice(0, 34)}>] /Prev ${previous} >>\n`,
    `startxref\n${xrefOffset}\n%%EOF\n`,
  ].join("");
  return Buffer.from(original + update, "latin1");
}

describe("password-protected files", () => {
  it.each([
    ["docx", "The document is password-protected."],
    ["pptx", "The presentation is password-protected."],
    ["xlsx", "The spreadsheet is password-protected."],
  ] as const)("says a password-protected .%s is password-protected", async (extension, reason) => {
    await expect(convertFile(extension, encryptedOoxml())).rejects.toThrow(reason);
  });

  it("says a password-protected .doc is password-protected", async () => {
    await expect(convertFile("doc", encryptedDoc())).rejects.toThrow("The document is password-protected.");
  });

  it("says a password-protected PDF is password-protected", async () => {
    await expect(convertFile("pdf", await encryptedPdf())).rejects.toThrow("The PDF is password-protected.");
  });

  it("reads the same kinds of file when they have no password", async () => {
    const plainDoc = compoundFile({ WordDocument: Buffer.alloc(8192, 0), "1Table": Buffer.alloc(4096, 0) });
    await expect(convertFile("doc", plainDoc)).rejects.not.toThrow(/password/);
    expect((await convertFile("docx", await makeDocx())).sections.length).toBeGreaterThan(0);
  });

  it.each([
    ["docx", "The DOCX file could not be read"],
    ["pptx", "The presentation could not be read"],
    ["doc", "The DOC file could not be read"],
    ["xlsx", "The spreadsheet could not be read"],
    ["pdf", "The PDF could not be read"],
    ["png", "The image could not be read"],
  ] as const)("explains a damaged .%s in plain words, never in the reader library's", async (extension, reason) => {
    // A zip's signature for the zip-based types (a .doc starting so would be read as the DOCX it really is).
    const damaged = Buffer.concat([
      Buffer.from(extension === "doc" || extension === "pdf" || extension === "png" ? "\u0000" : "PK\u0003\u0004"),
      Buffer.alloc(3000, 0x20),
    ]);
    const error: Error = await convertFile(extension, damaged).then(
      () => new Error("read"),
      (failure: Error) => failure,
    );
    expect(error.message).toBe(`${reason}: the file is damaged, or it is not the type its name says.`);
  });
});
