import { citationSection } from "@sage/contracts/chat-turn";
import type { Citation } from "@sage/contracts/conversations";
import type { PhrasingContent, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/** A run of text with its emphasis, or a footnote mark (a citation's number in the document). */
export type Inline = { text: string; bold?: boolean; italic?: boolean; code?: boolean; link?: string } | { note: number };

/** What the writers lay out: Markdown reduced to the blocks every format can show. */
export type Block =
  | { kind: "heading"; depth: number; inlines: Inline[] }
  | { kind: "paragraph"; inlines: Inline[] }
  | { kind: "list-item"; ordered: boolean; number: number; level: number; inlines: Inline[] }
  | { kind: "table"; rows: Inline[][][] }
  | { kind: "code"; text: string }
  | { kind: "quote"; inlines: Inline[] }
  | { kind: "rule" };

/** A footnote: the cited passage's file and section, numbered in order of first mention. */
export interface Note {
  n: number;
  text: string;
  fileId: number;
}

/** Numbers the notes of a whole document, which may come from several texts (a conversation's messages). */
export function createNotes() {
  const notes: Note[] = [];
  const byKey = new Map<string, Note>();
  return {
    notes,
    /** The note for a citation: one per passage, however often it is cited. */
    noteFor(citation: Citation): number {
      const key = `${citation.fileId}\n${citation.filename}\n${citation.source}`;
      let note = byKey.get(key);
      if (!note) {
        note = { n: notes.length + 1, text: noteText(citation), fileId: citation.fileId };
        byKey.set(key, note);
        notes.push(note);
      }
      return note.n;
    },
  };
}
export type Notes = ReturnType<typeof createNotes>;

/** "report.pdf, page 4" (the file and the page or section it came from, as the chat's chip says); a web page's title and address. */
export function noteText(citation: Pick<Citation, "filename" | "source" | "kind" | "href">): string {
  if (citation.kind === "url" && citation.href) return `${citation.filename}, ${citation.href}`;
  const section = citationSection(citation.source);
  return section && section !== citation.filename ? `${citation.filename}, ${section}` : citation.filename || "Knowledge Base";
}

/** [1], [2, 3] or [1][2]: the way SAGE's answers cite numbered passages. */
/** Built once: the GFM extensions are plain tables, and building them cost more than a short answer's parse. */
const GFM = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };

const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** Plain text of inlines (a note mark as its number in brackets). */
export function inlineText(inlines: readonly Inline[]): string {
  return inlines.map((inline) => ("note" in inline ? `[${inline.note}]` : inline.text)).join("");
}

type Marks = { bold?: boolean; italic?: boolean; code?: boolean; link?: string };

/**
 * Markdown (GFM: tables, lists, emphasis) as blocks. A citation whose number `cite` knows becomes a note mark;
 * any other bracketed number stays as text.
 */
export function parseMarkdown(markdown: string, cite: (n: number) => Citation | undefined, notes: Notes): Block[] {
  const tree = fromMarkdown(markdown, GFM);
  const blocks: Block[] = [];

  function textWithNotes(value: string, marks: Marks, out: Inline[]) {
    let last = 0;
    for (const match of value.matchAll(CITATION)) {
      const citations = match[1]!.split(",").map((part) => cite(Number(part.trim())));
      if (citations.some((citation) => !citation)) continue;
      if (match.index > last) out.push({ text: value.slice(last, match.index), ...marks });
      for (const citation of citations) out.push({ note: notes.noteFor(citation!) });
      last = match.index + match[0].length;
    }
    if (last < value.length) out.push({ text: value.slice(last), ...marks });
  }

  function inlines(nodes: readonly PhrasingContent[], marks: Marks = {}, out: Inline[] = []): Inline[] {
    for (const node of nodes) {
      if (node.type === "text") textWithNotes(node.value, marks, out);
      else if (node.type === "strong") inlines(node.children, { ...marks, bold: true }, out);
      else if (node.type === "emphasis") inlines(node.children, { ...marks, italic: true }, out);
      else if (node.type === "delete") inlines(node.children, marks, out);
      else if (node.type === "inlineCode") out.push({ text: node.value, ...marks, code: true });
      else if (node.type === "link") inlines(node.children, { ...marks, link: node.url }, out);
      else if (node.type === "break") out.push({ text: "\n", ...marks });
      else if (node.type === "image") out.push({ text: node.alt ?? "", ...marks });
      else if ("value" in node && typeof node.value === "string") out.push({ text: node.value, ...marks });
      else if ("children" in node) inlines(node.children as PhrasingContent[], marks, out);
    }
    return out;
  }

  function walk(nodes: readonly RootContent[], level = 0) {
    for (const node of nodes) {
      if (node.type === "heading") blocks.push({ kind: "heading", depth: node.depth, inlines: inlines(node.children) });
      else if (node.type === "paragraph") blocks.push({ kind: "paragraph", inlines: inlines(node.children) });
      else if (node.type === "list") {
        node.children.forEach((item, index) => {
          const [first, ...rest] = item.children;
          const text = first?.type === "paragraph" ? inlines(first.children) : [];
          const number = (node.start ?? 1) + index;
          blocks.push({ kind: "list-item", ordered: !!node.ordered, number, level, inlines: text });
          walk(first?.type === "paragraph" ? rest : item.children, level + 1);
        });
      } else if (node.type === "table") {
        blocks.push({ kind: "table", rows: node.children.map((row) => row.children.map((cell) => inlines(cell.children))) });
      } else if (node.type === "code") blocks.push({ kind: "code", text: node.value });
      else if (node.type === "blockquote") {
        for (const child of node.children) {
          if (child.type === "paragraph") blocks.push({ kind: "quote", inlines: inlines(child.children) });
          else walk([child], level);
        }
      } else if (node.type === "thematicBreak") blocks.push({ kind: "rule" });
      else if (node.type === "html") blocks.push({ kind: "paragraph", inlines: [{ text: node.value }] });
    }
  }
  walk(tree.children);
  return blocks;
}

/** A document to write: its title, its blocks, and the notes its blocks mark. */
export interface DocumentModel {
  title: string;
  blocks: Block[];
  notes: Note[];
}

/** One Markdown text as a document, its citations resolved by `cite`. */
export function markdownDocument(title: string, markdown: string, cite: (n: number) => Citation | undefined): DocumentModel {
  const notes = createNotes();
  const blocks = parseMarkdown(markdown, cite, notes);
  // A text that opens with the title as its `#` heading would show it twice.
  const first = blocks[0];
  if (first?.kind === "heading" && first.depth === 1 && inlineText(first.inlines).trim().toLowerCase() === title.trim().toLowerCase()) blocks.shift();
  return { title, blocks, notes: notes.notes };
}
