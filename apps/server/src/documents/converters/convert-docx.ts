import { ConversionError, documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";

const DOCX_UNREADABLE = "The DOCX file could not be read: it is damaged, or it is not a Word document";

/** DOCX through mammoth's HTML (which keeps headings, lists and tables), then to markdown text. */
export async function convertDocx(bytes: Buffer): Promise<ExtractedDocument> {
  let html: string;
  try {
    const { default: mammoth } = await import("mammoth");
    html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch (error) {
    // The parser's own words ("Unclosed root tag", "end of central directory") mean nothing to the user: logged only.
    throw new ConversionError(DOCX_UNREADABLE, (error as Error).message);
  }
  return documentFromText(await htmlToMarkdown(html), "The document contains no text");
}
