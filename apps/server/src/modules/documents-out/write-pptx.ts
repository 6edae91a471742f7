import { DOCUMENT_TEXTS } from "@sage/contracts/documents-out";
import type PptxGenJS from "pptxgenjs";
import { inlineText, type Block, type DocumentModel, type Inline } from "./markdown-document.ts";

/** One slide of a deck: its heading, what it shows, and what the speaker says. */
export interface SlidePlan {
  title: string;
  body: Block[];
  notes: string;
}

/** "Notes:" (or "**Notes:**", "Speaker notes:") starting a paragraph: it and what follows on the slide are notes. */
const NOTES_START = /^\s*(?:speaker\s+)?notes\s*:\s*/i;

/**
 * The deck's slides: each `##` heading starts one (each `#` heading when there is no `##`; one slide for a text
 * with no heading). Text before the first slide heading goes under the title on the title slide.
 */
export function planSlides(model: DocumentModel): { subtitle: Block[]; slides: SlidePlan[] } {
  const splitDepth = model.blocks.some((block) => block.kind === "heading" && block.depth === 2) ? 2 : 1;
  const subtitle: Block[] = [];
  const slides: Array<SlidePlan & { inNotes: boolean }> = [];
  let current: (SlidePlan & { inNotes: boolean }) | undefined;
  for (const block of model.blocks) {
    if (block.kind === "heading" && block.depth <= splitDepth) {
      if (block.depth < splitDepth && !current && slides.length === 0) continue; // a `#` title above the slides
      current = { title: inlineText(block.inlines).trim(), body: [], notes: "", inNotes: false };
      slides.push(current);
      continue;
    }
    if (!current) {
      subtitle.push(block);
      continue;
    }
    const text = "inlines" in block ? inlineText(block.inlines) : block.kind === "code" ? block.text : "";
    if (!current.inNotes && block.kind === "paragraph" && NOTES_START.test(text)) {
      current.inNotes = true;
      current.notes = text.replace(NOTES_START, "");
    } else if (current.inNotes) current.notes += `\n${block.kind === "list-item" ? "- " : ""}${text}`;
    else current.body.push(block);
  }
  if (slides.length === 0) return { subtitle: [], slides: subtitle.length > 0 ? [{ title: model.title, body: subtitle, notes: "" }] : [] };
  return { subtitle, slides: slides.map(({ inNotes: _inNotes, ...slide }) => ({ ...slide, notes: slide.notes.trim() })) };
}

type TextRun = PptxGenJS.TextProps;

function runs(inlines: readonly Inline[]): TextRun[] {
  return inlines.map((inline) =>
    "note" in inline
      ? { text: `[${inline.note}]`, options: { superscript: true } }
      : { text: inline.text, options: { bold: inline.bold, italic: inline.italic, fontFace: inline.code ? "Consolas" : undefined } },
  );
}

/** A slide's text blocks as one text box's paragraphs. */
function bodyText(blocks: readonly Block[]): TextRun[] {
  const out: TextRun[] = [];
  for (const block of blocks) {
    if (block.kind === "table" || block.kind === "rule") continue;
    const paragraph = block.kind === "code" ? [{ text: block.text, options: { fontFace: "Consolas" } }] : "inlines" in block ? runs(block.inlines) : [];
    if (paragraph.length === 0) continue;
    const first = paragraph[0]!;
    first.options = {
      ...first.options,
      ...(block.kind === "list-item"
        ? { bullet: block.ordered ? { type: "number" as const } : true, indentLevel: block.level }
        : block.kind === "heading"
          ? { bold: true }
          : {}),
    };
    paragraph.at(-1)!.options = { ...paragraph.at(-1)!.options, breakLine: true };
    out.push(...paragraph);
  }
  return out;
}

/** A 16:9 deck: a title slide, a slide per heading with its speaker notes, and a Sources slide when it cites. */
export async function writePptx(model: DocumentModel): Promise<Buffer> {
  const { default: Pptx } = await import("pptxgenjs");
  const deck = new Pptx();
  deck.layout = "LAYOUT_WIDE";
  deck.title = model.title;
  deck.author = "SAGE";
  const plan = planSlides(model);

  const cover = deck.addSlide();
  cover.addText(model.title, { x: 0.6, y: 2.3, w: 12.1, h: 1.4, fontSize: 40, bold: true, align: "center" });
  const subtitle = bodyText(plan.subtitle);
  if (subtitle.length > 0) cover.addText(subtitle, { x: 1.2, y: 3.9, w: 10.9, h: 2.2, fontSize: 20, align: "center", valign: "top", fit: "shrink" });

  for (const planned of plan.slides) {
    const slide = deck.addSlide();
    slide.addText(planned.title, { x: 0.5, y: 0.3, w: 12.3, h: 0.9, fontSize: 30, bold: true });
    const text = bodyText(planned.body);
    const table = planned.body.find((block) => block.kind === "table");
    const textHeight = table ? (text.length > 0 ? 1.6 : 0) : 5.8;
    if (text.length > 0) slide.addText(text, { x: 0.6, y: 1.3, w: 12.1, h: textHeight, fontSize: 18, valign: "top", fit: "shrink", paraSpaceAfter: 6 });
    if (table) {
      const rows = table.rows.map((row, index) =>
        row.map((cell) => ({ text: inlineText(cell), options: { bold: index === 0, fill: index === 0 ? { color: "E7E6E6" } : undefined } })),
      );
      slide.addTable(rows, { x: 0.6, y: 1.4 + textHeight, w: 12.1, fontSize: 14, border: { type: "solid", pt: 0.5, color: "999999" }, autoPage: true });
    }
    if (planned.notes) slide.addNotes(planned.notes);
  }

  if (model.notes.length > 0) {
    const sources = deck.addSlide();
    sources.addText(DOCUMENT_TEXTS.sourcesSlide, { x: 0.5, y: 0.3, w: 12.3, h: 0.9, fontSize: 30, bold: true });
    const lines = model.notes.map((note) => ({ text: `[${note.n}] ${note.text}`, options: { breakLine: true } }));
    sources.addText(lines, { x: 0.6, y: 1.3, w: 12.1, h: 5.8, fontSize: 16, valign: "top", fit: "shrink" });
  }
  return (await deck.write({ outputType: "nodebuffer" })) as Buffer;
}
