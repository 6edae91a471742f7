import type { ExtractedDocument, ExtractedSection } from "../extracted-document.ts";
import { joinBlocks } from "./html-to-markdown.ts";
import { officeMarkdown, parseOffice } from "./parse-office.ts";

/** pptx and odp: each slide's text and its speaker notes, with source "slide N". */
export async function convertSlides(bytes: Buffer, fileType: "pptx" | "odp"): Promise<ExtractedDocument> {
  const nodes = await parseOffice(bytes, fileType, "The presentation");
  const sections: ExtractedSection[] = [];
  let position = 0;
  for (const slide of nodes.filter((node) => node.type === "slide")) {
    position++;
    const number = slide.metadata?.slideNumber ?? position;
    const body = joinBlocks(officeMarkdown(slide.children ?? []));
    // The notes page repeats the slide number in a placeholder of its own.
    const notes = joinBlocks(officeMarkdown(slide.notes ?? []).filter((block) => block !== String(number)));
    const text = [body, notes && `Speaker notes:\n${notes}`].filter(Boolean).join("\n\n");
    if (text) sections.push({ source: `slide ${number}`, text });
  }
  return sections.length > 0 ? { sections } : { sections: [], notProcessedReason: "The presentation contains no text" };
}
