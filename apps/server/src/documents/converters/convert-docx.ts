import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { readerFailure } from "./reader-failure.ts";

/** DOCX through mammoth's HTML (which keeps headings, lists and tables), then to markdown text. */
export async function convertDocx(bytes: Buffer): Promise<ExtractedDocument> {
  let html: string;
  try {
    const { default: mammoth } = await import("mammoth");
    html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch (error) {
    throw readerFailure("The DOCX file", error);
  }
  return documentFromText(await htmlToMarkdown(html), "The document contains no text");
}
