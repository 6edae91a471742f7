import { readFile } from "node:fs/promises";
import { convertFile, type UploadExtension } from "./converters/convert-file.ts";
import { convertHtml, decodeHtml } from "./converters/convert-html.ts";
import { convertPdf } from "./converters/convert-pdf.ts";
import { convertTxt } from "./converters/convert-txt.ts";
import { contentTypeCharset } from "./converters/decode-text.ts";
import type { MailLimits } from "./converters/mail-message.ts";
import { ConversionError, documentFromText, type ExtractedDocument } from "./extracted-document.ts";
import { checkZipExpansion } from "./zip-expansion.ts";

/** Everything ingestion reads text from: a stored upload (by path), a fetched web page, or a note's text. */
export type ConversionInput =
  | { kind: "file"; extension: UploadExtension; path: string }
  | { kind: "page"; url: string; contentType: string; body: Uint8Array }
  | { kind: "note"; text: string };

export interface ConversionLimits {
  /** A zip-based document (docx...) whose entries expand to more than this is refused before it is parsed. */
  maxExpandedBytes: number;
  /** Pages of a PDF that are read; the document says how many more it had (pagesNotRead). */
  maxPages?: number;
  /** Attachments of one mail handed on as items, and the largest one (the upload limit); the rest are listed only. */
  mail?: MailLimits;
}

/** Reads one input into sections. Runs in the conversion process (conversion-process.entry.ts), never in the server. */
export async function convertInput(input: ConversionInput, limits: ConversionLimits): Promise<ExtractedDocument> {
  switch (input.kind) {
    case "note":
      return documentFromText(input.text, "The note is empty");
    case "file": {
      // A PDF is read by path where it is parsed: a 300-page scan is tens of MB this process need not hold.
      if (input.extension === "pdf") return convertPdf({ path: input.path }, { maxPages: limits.maxPages });
      const bytes = await readFile(input.path);
      // Office documents are zip archives: one that would expand past the limit is a bomb, refused unopened.
      if (bytes[0] === 0x50 && bytes[1] === 0x4b) await checkZipExpansion(bytes, limits.maxExpandedBytes);
      return convertFile(input.extension, bytes, limits.mail);
    }
    case "page": {
      const { contentType, body } = input;
      const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      if (contentType.includes("pdf") || /\.pdf$/i.test(new URL(input.url).pathname)) return convertPdf(buffer, { maxPages: limits.maxPages });
      if (contentType.includes("html") || contentType === "") return convertHtml(decodeHtml(buffer, contentType));
      if (contentType.startsWith("text/") || contentType.includes("json")) return convertTxt(buffer, contentTypeCharset(contentType));
      throw new ConversionError(`Pages of type ${contentType.split(";")[0]} cannot be processed`);
    }
  }
}
