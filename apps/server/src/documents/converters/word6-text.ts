import { createRequire } from "node:module";

type Cfb = typeof import("@e965/xlsx").CFB;

/** Word 6 and Word 95 files begin their WordDocument stream with this (Word 97 and later: 0xA5EC). */
const WORD6_IDENT = 0xa5dc;
const F_ENCRYPTED = 0x0100;

/** The Windows code page of the document's language (its FIB's lid): Word 6 stored text in 8-bit characters. */
function codePage(lid: number): string {
  const language = lid & 0x3ff;
  if ([0x19, 0x22, 0x02, 0x23].includes(language)) return "windows-1251"; // Russian, Ukrainian, Bulgarian, Belarusian
  if ([0x05, 0x15, 0x0e, 0x1b, 0x24, 0x1a, 0x18].includes(language)) return "windows-1250"; // Czech, Polish, Hungarian, Slovak, Slovene, Croatian, Romanian
  const others: Record<number, string> = {
    0x08: "windows-1253",
    0x1f: "windows-1254",
    0x0d: "windows-1255",
    0x01: "windows-1256",
    0x25: "windows-1257",
    0x26: "windows-1257",
    0x27: "windows-1257",
  };
  return others[language] ?? "windows-1252";
}

/**
 * The text of a Word 6 or Word 95 document (which the .doc reader, made for Word 97 and later, refuses with
 * "Invalid magic number"), or null when the file is not one. Its main text lies as 8-bit characters from fcMin, ccpText
 * of them (FIB offsets 0x18 and 0x34); a fast-saved file keeps edits elsewhere, so this reads what was last saved
 * whole. Field instructions (between marks 0x13 and 0x14) are dropped and their shown results kept.
 */
export function word6Text(bytes: Buffer): string | null {
  const { CFB } = createRequire(import.meta.url)("@e965/xlsx") as { CFB: Cfb };
  let stream: Buffer;
  try {
    const entry = CFB.find(CFB.read(bytes, { type: "buffer" }), "WordDocument");
    if (!entry?.content) return null;
    stream = Buffer.from(entry.content as Uint8Array);
  } catch {
    return null;
  }
  if (stream.length < 0x38 || stream.readUInt16LE(0) !== WORD6_IDENT || stream.readUInt16LE(0x0a) & F_ENCRYPTED) return null;
  const fcMin = stream.readUInt32LE(0x18);
  const fcMac = Math.min(stream.readUInt32LE(0x1c), stream.length);
  const ccpText = stream.readUInt32LE(0x34);
  const end = ccpText > 0 && fcMin + ccpText <= fcMac ? fcMin + ccpText : fcMac;
  if (fcMin >= end) return null;
  const text = new TextDecoder(codePage(stream.readUInt16LE(0x06))).decode(stream.subarray(fcMin, end));
  return text
    .replace(/\u0013[^\u0013\u0014\u0015]*\u0014/g, "") // a field's instruction, up to its result
    .replace(/\u0013[^\u0013\u0015]*\u0015/g, "") // a field with no result
    .replace(/[\u0014\u0015\u001f]/g, "")
    .replace(/[\u000b\u000c]/g, "\n")
    .replace(/\u001e/g, "-")
    .replace(/[\u0000-\u0006\u0008\u000e-\u0012\u0016-\u001d]/g, "");
}
