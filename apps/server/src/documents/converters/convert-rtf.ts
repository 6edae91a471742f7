import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { runInThread } from "./run-in-thread.ts";
import type { RtfThreadData } from "./rtf-reader.entry.ts";

/** RTF through rtf.js (Unicode escapes and code pages handled), then the same HTML-to-markdown path as web pages. */
export async function convertRtf(bytes: Buffer): Promise<ExtractedDocument> {
  const data = new Uint8Array(bytes);
  // rtf.js renders in a thread of its own (rtf-reader.entry.ts), with linkedom's document.
  const html = await runInThread<RtfThreadData, string>(new URL("./rtf-reader.entry.ts", import.meta.url), {
    what: "The RTF document",
    workerData: { bytes: data },
    transferList: [data.buffer],
  });
  return documentFromText(await htmlToMarkdown(html), "The document contains no text");
}
