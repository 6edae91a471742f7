import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { joinBlocks } from "./html-to-markdown.ts";
import { officeMarkdown, parseOffice } from "./parse-office.ts";

/** OpenDocument text: headings, lists and tables kept as markdown, split into sections at headings like DOCX. */
export async function convertOdt(bytes: Buffer): Promise<ExtractedDocument> {
  const nodes = await parseOffice(bytes, "odt", "The document");
  return documentFromText(joinBlocks(officeMarkdown(nodes)), "The document contains no text");
}
