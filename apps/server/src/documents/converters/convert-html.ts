import { contentTypeCharset, declaredCharset, decodeText } from "./decode-text.ts";
import { documentFromText, type ExtractedDocument } from "../extracted-document.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";

/** A web page reduced to its readable article (Readability), as markdown; the whole body when Readability finds none. */
export async function convertHtml(html: string): Promise<ExtractedDocument & { title?: string }> {
  // Loaded on first use: they are not needed to start the server.
  const [{ Readability }, { parseHTML }] = await Promise.all([import("@mozilla/readability"), import("linkedom")]);
  const page = wholeDocument(html);
  const { document } = parseHTML(page);
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
  const body = articleHtml ?? parseHTML(page).document.body?.innerHTML ?? html;
  let markdown = await htmlToMarkdown(body);
  if (title && !markdown.startsWith("# ")) markdown = `# ${title}\n\n${markdown}`;
  return { ...documentFromText(markdown, "The page contains no readable text"), title };
}

/**
 * linkedom builds a body only for a page with both <html> and <body> tags: a fragment ("<p>Привет</p>", a saved
 * snippet, a mail body) came out empty. Such a page is given the tags a browser would infer.
 */
function wholeDocument(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  const head = /<head[^>]*>([\s\S]*?)<\/head>/i.exec(html);
  let rest = head ? html.slice(0, head.index) + html.slice(head.index + head[0].length) : html;
  rest = rest.replace(/<!doctype[^>]*>|<\/?html[^>]*>|<\/?body[^>]*>|<head[^>]*>/gi, "");
  // A fragment's own <title> (outside any head) still names the page.
  const title = head ? "" : (/<title[^>]*>[\s\S]*?<\/title>/i.exec(rest)?.[0] ?? "");
  if (title) rest = rest.replace(title, "");
  return `<!DOCTYPE html><html><head>${head?.[1] ?? ""}${title}</head><body>${rest}</body></html>`;
}

/** An uploaded .html or .htm file, decoded by decodeText with the charset the page declares. */
export function convertHtmlFile(bytes: Buffer): Promise<ExtractedDocument> {
  return convertHtml(decodeHtml(bytes));
}

/** A page's text: an HTTP header's charset comes before the one the page declares (as in browsers). */
export function decodeHtml(bytes: Uint8Array, contentType = ""): string {
  return decodeText(bytes, contentTypeCharset(contentType) ?? declaredCharset(bytes));
}
