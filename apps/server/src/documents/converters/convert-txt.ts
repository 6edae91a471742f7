import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";

/**
 * Decodes text bytes: a BOM decides (UTF-8, UTF-16 LE/BE); else UTF-16 without BOM is recognised by its zero
 * bytes; else strict UTF-8, falling back to Windows-1252 (a superset of Latin-1) when the bytes are not UTF-8.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const sample = bytes.subarray(0, 4096);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < sample.length; index++) {
    if (sample[index] !== 0) continue;
    if (index % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const half = sample.length / 2;
  if (half > 0 && oddZeros > half * 0.3 && evenZeros < half * 0.05) return new TextDecoder("utf-16le").decode(bytes);
  if (half > 0 && evenZeros > half * 0.3 && oddZeros < half * 0.05) return new TextDecoder("utf-16be").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

export function convertTxt(bytes: Uint8Array): ExtractedDocument {
  // NUL bytes are left over from a mis-detected UTF-16 file; they would cut the text in SQLite and the browser.
  const text = decodeText(bytes).replace(/\r\n?/g, "\n").replaceAll("\u0000", "");
  return documentFromText(text, "The file contains no text");
}
