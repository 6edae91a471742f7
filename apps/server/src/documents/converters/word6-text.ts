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
  return withoutFieldCodes(text);
}

/** Word's marks: 0x13 field start, 0x14 field result, 0x15 field end, 0x0b line break, 0x0c page break, 0x1e and 0x1f hyphens. */
function withoutFieldCodes(text: string): string {
  let out = "";
  let inInstruction = 0;
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (code === 0x13) inInstruction++;
    else if (code === 0x14 || code === 0x15) inInstruction = Math.max(0, inInstruction - 1);
    else if (inInstruction > 0) continue;
    else if (code === 0x0b || code === 0x0c) out += "\n";
    else if (code === 0x1e) out += "-";
    else if (code >= 0x20 || code === 0x09 || code === 0x0d || code === 0x07) out += character;
  }
  return out;
}
