import { decodeText } from "./convert-txt.ts";
import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";

/** A web page reduced to its readable article (Readability), as markdown; the whole body when Readability finds none. */
export async function convertHtml(html: string): Promise<ExtractedDocument & { title?: string }> {
  // Loaded on first use: they are not needed to start the server.
  const [{ Readability }, { parseHTML }] = await Promise.all([import("@mozilla/readability"), import("linkedom")]);
  const { document } = parseHTML(html);
  let articleHtml: string | undefined;
  let title: string | undefined = document.title || undefined;
  try {
    const article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
    if (article?.content) {
      articleHtml = article.content;
      title = article.title || title;
    }
  } catch {
    articleHtml = undefined;
  }
  const body = articleHtml ?? parseHTML(html).document.body?.innerHTML ?? html;
  let markdown = await htmlToMarkdown(body);
  if (title && !markdown.startsWith("# ")) markdown = `# ${title}\n\n${markdown}`;
  return { ...documentFromText(markdown, "The page contains no readable text"), title };
}

/** An uploaded .html or .htm file: decoded by its byte-order mark, else its declared charset, else like a text file. */
export function convertHtmlFile(bytes: Buffer): Promise<ExtractedDocument> {
  return convertHtml(decodeHtml(bytes));
}

export function decodeHtml(bytes: Buffer): string {
  const hasBom = (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const declared = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 4096).toString("latin1"))?.[1];
  if (!hasBom && declared && !/^utf-?8$/i.test(declared)) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // An unknown label: fall through to detection.
    }
  }
  return decodeText(bytes);
}
