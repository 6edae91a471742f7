import { createRequire } from "node:module";
import type { Block, DocumentModel, Inline, Note } from "./markdown-document.ts";
import { inlineText } from "./markdown-document.ts";

const MARGIN = 64;
const BODY = 11;
const NOTE_SIZE = 8.5;
const HEADING_SIZES = [20, 16, 13.5, 12, 11, 11];

/** DejaVu (Bitstream Vera licence): Latin with every European accent, Greek, Cyrillic, Hebrew and Arabic letters. */
const FACES = {
  Body: "DejaVuSans.ttf",
  "Body-Bold": "DejaVuSans-Bold.ttf",
  "Body-Oblique": "DejaVuSans-Oblique.ttf",
  "Body-BoldOblique": "DejaVuSans-BoldOblique.ttf",
  Mono: "DejaVuSansMono.ttf",
} as const;
type Face = keyof typeof FACES;
const facePath = (file: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${file}`);

/**
 * Text the body font can draw: characters it has no glyph for (Chinese, Japanese, emoji) become "?", so a line
 * stays readable instead of showing empty boxes (decision 042). `hasGlyph` is the embedded font's own answer.
 */
export function pdfSafe(text: string, hasGlyph: (codePoint: number) => boolean): string {
  return text.replace(/[^\n\t]/gu, (char) => (hasGlyph(char.codePointAt(0)!) ? char : "?"));
}

const fontOf = (inline: { bold?: boolean; italic?: boolean; code?: boolean }): Face =>
  inline.code ? "Mono" : inline.bold && inline.italic ? "Body-BoldOblique" : inline.bold ? "Body-Bold" : inline.italic ? "Body-Oblique" : "Body";

/**
 * A PDF (A4) with real footnotes: each cited passage's note sits at the foot of the page where it is first
 * cited; a block is moved to the next page when it and its new notes do not fit above the notes already there.
 */
export async function writePdf(model: DocumentModel): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "A4", margin: MARGIN, bufferPages: true, font: facePath(FACES.Body), info: { Title: model.title, Creator: "SAGE" } });
  for (const [face, file] of Object.entries(FACES)) doc.registerFont(face, facePath(file));
  // pdfkit keeps the loaded font (fontkit's) on the document; it answers which characters have a glyph.
  const loaded = (doc.font("Body") as unknown as { _font?: { font?: { hasGlyphForCodePoint?(codePoint: number): boolean } } })._font?.font;
  const hasGlyph = (codePoint: number) => codePoint < 0x80 || loaded?.hasGlyphForCodePoint?.(codePoint) !== false;
  const safe = (text: string) => pdfSafe(text, hasGlyph);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const notesByPage = new Map<number, Note[]>();
  const placed = new Set<number>();
  const page = () => doc.bufferedPageRange().start + doc.bufferedPageRange().count - 1;
  const noteHeight = (note: Note) =>
    doc
      .font("Body")
      .fontSize(NOTE_SIZE)
      .heightOfString(safe(`${note.n}  ${note.text}`), { width }) + 2;
  const notesHeight = (notes: readonly Note[]) => (notes.length ? 10 + notes.reduce((sum, note) => sum + noteHeight(note), 0) : 0);
  const byNumber = new Map(model.notes.map((note) => [note.n, note]));

  /** Makes room for a block of `height` and its notes not yet placed; raises the page's bottom above its notes. */
  function room(height: number, inlines: readonly Inline[] = []) {
    const fresh = [...new Set(inlines.flatMap((inline) => ("note" in inline && !placed.has(inline.note) ? [inline.note] : [])))].map((n) => byNumber.get(n)!);
    const onPage = notesByPage.get(page()) ?? [];
    const limit = doc.page.height - MARGIN - notesHeight([...onPage, ...fresh]);
    if (doc.y + height > limit && doc.y > MARGIN + 1) doc.addPage();
    const list = notesByPage.get(page()) ?? [];
    list.push(...fresh);
    notesByPage.set(page(), list);
    for (const note of fresh) placed.add(note.n);
    doc.page.margins.bottom = MARGIN + notesHeight(list);
  }

  function write(inlines: readonly Inline[], options: { size: number; x?: number; width?: number; prefix?: string; bold?: boolean }) {
    const x = options.x ?? MARGIN;
    const boxWidth = options.width ?? width;
    const parts: Array<{ text: string; font: Face; size: number; link?: string }> = [];
    if (options.prefix) parts.push({ text: options.prefix, font: "Body", size: options.size });
    for (const inline of inlines) {
      if ("note" in inline) parts.push({ text: `[${inline.note}]`, font: "Body", size: options.size * 0.75 });
      else parts.push({ text: safe(inline.text), font: fontOf({ ...inline, bold: inline.bold || options.bold }), size: options.size, link: inline.link });
    }
    if (parts.length === 0) return;
    const plain = parts.map((part) => part.text).join("");
    room(
      doc
        .font(options.bold ? "Body-Bold" : "Body")
        .fontSize(options.size)
        .heightOfString(plain, { width: boxWidth }) +
        options.size * 0.4,
      inlines,
    );
    parts.forEach((part, index) => {
      doc.font(part.font).fontSize(part.size);
      const textOptions = { width: boxWidth, continued: index < parts.length - 1, link: part.link && /^https?:/i.test(part.link) ? part.link : undefined };
      if (index === 0) doc.text(part.text, x, doc.y, textOptions);
      else doc.text(part.text, textOptions);
    });
    doc.moveDown(0.4);
  }

  function table(rows: Inline[][][]) {
    const columns = Math.max(...rows.map((row) => row.length));
    const cellWidth = width / columns;
    rows.forEach((row, rowIndex) => {
      const font: Face = rowIndex === 0 ? "Body-Bold" : "Body";
      doc.font(font).fontSize(9.5);
      const texts = Array.from({ length: columns }, (_, column) => safe(inlineText(row[column] ?? [])));
      const height = Math.max(...texts.map((text) => doc.heightOfString(text || " ", { width: cellWidth - 8 }))) + 8;
      room(height, row.flat());
      const top = doc.y;
      texts.forEach((text, column) => {
        const left = MARGIN + column * cellWidth;
        if (rowIndex === 0) doc.rect(left, top, cellWidth, height).fillAndStroke("#e7e6e6", "#999999").fillColor("black");
        else doc.rect(left, top, cellWidth, height).strokeColor("#999999").stroke();
        doc
          .font(font)
          .fontSize(9.5)
          .text(text, left + 4, top + 4, { width: cellWidth - 8, lineBreak: true });
      });
      doc.x = MARGIN;
      doc.y = top + height;
    });
    doc.moveDown(0.6);
  }

  const block = (item: Block) => {
    switch (item.kind) {
      case "heading":
        doc.moveDown(0.3);
        return write(item.inlines, { size: HEADING_SIZES[item.depth - 1] ?? BODY, bold: true });
      case "paragraph":
        return write(item.inlines, { size: BODY });
      case "quote":
        return write(item.inlines, { size: BODY, x: MARGIN + 18, width: width - 18 });
      case "list-item": {
        const indent = 14 + item.level * 16;
        return write(item.inlines, { size: BODY, x: MARGIN + indent, width: width - indent, prefix: item.ordered ? `${item.number}.  ` : "•  " });
      }
      case "code":
        return write([{ text: item.text, code: true }], { size: 9.5 });
      case "rule":
        room(10);
        doc
          .moveTo(MARGIN, doc.y + 4)
          .lineTo(MARGIN + width, doc.y + 4)
          .strokeColor("#999999")
          .stroke();
        doc.moveDown(0.8);
        return;
      case "table":
        return table(item.rows);
    }
  };

  write([{ text: model.title }], { size: 24, bold: true });
  doc.moveDown(0.4);
  for (const item of model.blocks) block(item);

  // The notes, at the foot of each page, under a short rule.
  for (const [index, notes] of notesByPage) {
    if (notes.length === 0) continue;
    doc.switchToPage(index);
    doc.page.margins.bottom = 0;
    let y = doc.page.height - MARGIN - notesHeight(notes) + 4;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + 120, y)
      .strokeColor("#999999")
      .stroke();
    y += 6;
    for (const note of notes) {
      doc
        .font("Body")
        .fontSize(NOTE_SIZE)
        .fillColor("black")
        .text(safe(`${note.n}  ${note.text}`), MARGIN, y, { width });
      y += noteHeight(note);
    }
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
