import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { readerFailure } from "./reader-failure.ts";

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
