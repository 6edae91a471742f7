import { decodeText } from "./decode-text.ts";
import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";

/** A text file; a fetched page passes the charset its Content-Type header names. */
export function convertTxt(bytes: Uint8Array, declaredCharset?: string): ExtractedDocument {
  // NUL bytes are left over from a mis-detected UTF-16 file; they would cut the text in SQLite and the browser.
  const text = decodeText(bytes, declaredCharset).replace(/\r\n?/g, "\n").replaceAll("\u0000", "");
  return documentFromText(text, "The file contains no text");
}
