import type { PhrasingContent, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/** A run of text with one set of marks; `link` is the address it opens. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  link?: string;
}

/** Markdown as the blocks a chat message can show: text (a paragraph, a list item, a table row), code, a rule. */
export type Block = { kind: "text"; spans: Span[]; prefix?: string; quote?: boolean } | { kind: "code"; text: string; language?: string } | { kind: "rule" };

const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
// Built once: made for each message they were most of its rendering (5.1 ms against 2.1 ms a short answer here).
const GFM = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };

/**
 * Parses the model's Markdown (GFM) into blocks of spans. A bracketed number `cite` knows ([2], [1, 3]) becomes a
 * link to where SAGE shows that source; any other stays as text.
 */
export function markdownBlocks(markdown: string, cite?: (n: number) => string | undefined): Block[] {
  const tree = fromMarkdown(markdown, GFM);
  const blocks: Block[] = [];

  function textWithCitations(value: string, marks: Omit<Span, "text">, out: Span[]) {
    if (!cite || marks.link || marks.code) {
      out.push({ text: value, ...marks });
      return;
    }
    let last = 0;
    for (const match of value.matchAll(CITATION)) {
      const numbers = match[1]!.split(",").map((part) => Number(part.trim()));
      const links = numbers.map((n) => cite(n));
      if (links.some((link) => !link)) continue;
      if (match.index > last) out.push({ text: value.slice(last, match.index), ...marks });
      numbers.forEach((n, index) => out.push({ text: `[${n}]`, link: links[index] }));
      last = match.index + match[0].length;
    }
    if (last < value.length) out.push({ text: value.slice(last), ...marks });
  }

  function spans(nodes: readonly PhrasingContent[], marks: Omit<Span, "text"> = {}, out: Span[] = []): Span[] {
    for (const node of nodes) {
      if (node.type === "text") textWithCitations(node.value, marks, out);
      else if (node.type === "strong") spans(node.children, { ...marks, bold: true }, out);
      else if (node.type === "emphasis") spans(node.children, { ...marks, italic: true }, out);
      else if (node.type === "delete") spans(node.children, { ...marks, strike: true }, out);
      else if (node.type === "inlineCode") out.push({ text: node.value, ...marks, code: true });
      else if (node.type === "link") {
        // A bare address (GFM's autolinks) stays text: the chat apps make it a link themselves, and a card's content
        // (a mail's recipients, a forwarded address) must show as written, never as a link SAGE made.
        const label = node.children.map((child) => ("value" in child ? child.value : "")).join("");
        const bare = [label, `mailto:${label}`, `http://${label}`, `https://${label}`].includes(node.url);
        spans(node.children, bare ? marks : { ...marks, link: node.url }, out);
      } else if (node.type === "break") out.push({ text: "\n" });
      else if (node.type === "image") out.push({ text: node.alt ?? "", ...marks });
      else if ("value" in node && typeof node.value === "string") out.push({ text: node.value, ...marks });
      else if ("children" in node) spans(node.children as PhrasingContent[], marks, out);
    }
    return out;
  }

  function walk(nodes: readonly RootContent[], level: number, quote: boolean) {
    const indent = "  ".repeat(level);
    for (const node of nodes) {
      if (node.type === "heading") blocks.push({ kind: "text", spans: spans(node.children, { bold: true }), quote });
      else if (node.type === "paragraph") blocks.push({ kind: "text", spans: spans(node.children), quote, ...(indent ? { prefix: indent } : {}) });
      else if (node.type === "list") {
        node.children.forEach((item, index) => {
          const [first, ...rest] = item.children;
          const marker = node.ordered ? `${(node.start ?? 1) + index}. ` : "• ";
          const check = item.checked === true ? "☑ " : item.checked === false ? "☐ " : "";
          blocks.push({ kind: "text", spans: first?.type === "paragraph" ? spans(first.children) : [], prefix: `${indent}${marker}${check}`, quote });
          walk(first?.type === "paragraph" ? rest : item.children, level + 1, quote);
        });
      } else if (node.type === "table") {
        node.children.forEach((row, index) => {
          const cells: Span[] = [];
          row.children.forEach((cell, column) => {
            if (column > 0) cells.push({ text: " | " });
            cells.push(...spans(cell.children, index === 0 ? { bold: true } : {}));
          });
          blocks.push({ kind: "text", spans: cells, quote });
        });
      } else if (node.type === "code") blocks.push({ kind: "code", text: node.value, ...(node.lang ? { language: node.lang } : {}) });
      else if (node.type === "blockquote") walk(node.children, level, true);
      else if (node.type === "thematicBreak") blocks.push({ kind: "rule" });
      else if (node.type === "html") blocks.push({ kind: "text", spans: [{ text: node.value }], quote });
    }
  }
  walk(tree.children, 0, false);
  return blocks.filter((block) => block.kind !== "text" || block.prefix || block.spans.some((span) => span.text.trim()));
}

/** The spans' plain text. */
export const spansText = (spans: readonly Span[]) => spans.map((span) => span.text).join("");

/** The spans cut at these offsets of their plain text (ascending), each piece keeping its marks. */
export function cutSpans(spans: readonly Span[], offsets: readonly number[]): Span[][] {
  const pieces: Span[][] = [[]];
  let position = 0;
  let next = 0;
  for (const span of spans) {
    let text = span.text;
    let start = position;
    while (next < offsets.length && offsets[next]! < start + text.length) {
      const at = offsets[next]! - start;
      if (at > 0) pieces.at(-1)!.push({ ...span, text: text.slice(0, at) });
      pieces.push([]);
      text = text.slice(Math.max(at, 0));
      start += Math.max(at, 0);
      next++;
    }
    if (text) pieces.at(-1)!.push({ ...span, text });
    position += span.text.length;
  }
  return pieces.filter((piece) => piece.length > 0);
}

/** Where sentences end in a text: after . ! ? … (and a closing quote or bracket) and the space that follows. */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(/[.!?…]["'”’)\]]*\s+|\n+/g)) {
    const end = match.index + match[0].length;
    if (end < text.length) ends.push(end);
  }
  return ends;
}

/** Where words end: after each run of spaces. */
export function wordEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(/\s+/g)) {
    const end = match.index + match[0].length;
    if (end < text.length) ends.push(end);
  }
  return ends;
}
