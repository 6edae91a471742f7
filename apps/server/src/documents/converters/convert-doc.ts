import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { readerFailure } from "./reader-failure.ts";
import { word6Text } from "./word6-text.ts";

/** Legacy Word (.doc) files: body text with headers, footnotes and text boxes that carry content. */
export async function convertDoc(bytes: Buffer): Promise<ExtractedDocument> {
  let text: string;
  try {
    const { default: WordExtractor } = await import("word-extractor");
    const document = await new WordExtractor().extract(bytes);
    text = [document.getBody(), document.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }), document.getFootnotes(), document.getEndnotes()]
      .map((part) => part.trim())
      .filter(Boolean)
      .join("\n\n");
  } catch (error) {
    // word-extractor reads Word 97 and later; a Word 6 or 95 file's text is read by its own plain reader.
    const older = /Invalid magic number/.test((error as Error).message) ? word6Text(bytes) : null;
    if (older !== null) return documentFromText(normalizeDocText(older), "The document contains no text");
    throw readerFailure("The DOC file", error);
  }
  return documentFromText(normalizeDocText(text), "The document contains no text");
}

/** Word uses \r for paragraph ends and \u0007 (BEL) between table cells; the cells become tabs. */
function normalizeDocText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replaceAll("\u0007", "\t")
    .replace(/\n{3,}/g, "\n\n");
}
