import type { Block, DocumentModel, Inline } from "./markdown-document.ts";

type Docx = typeof import("docx");

const HEADINGS = ["HEADING_1", "HEADING_2", "HEADING_3", "HEADING_4", "HEADING_5", "HEADING_6"] as const;

/** A Word document: headings as Word headings, lists, tables with a header row, citations as real footnotes. */
export async function writeDocx(model: DocumentModel): Promise<Buffer> {
  const docx: Docx = await import("docx");
  const { Document, Packer, Paragraph, TextRun, ExternalHyperlink, FootnoteReferenceRun, HeadingLevel, Table, TableRow, TableCell, WidthType, ShadingType } =
    docx;

  // Word numbers footnotes by their marks: each mark is a footnote of its own, in the order they come.
  const footnotes: Record<number, { children: InstanceType<Docx["Paragraph"]>[] }> = {};
  const noteText = new Map(model.notes.map((note) => [note.n, note.text]));
  let marks = 0;
  const runs = (inlines: readonly Inline[], extra: { bold?: boolean } = {}) =>
    inlines.map((inline) => {
      if ("note" in inline) {
        marks += 1;
        footnotes[marks] = { children: [new Paragraph(noteText.get(inline.note) ?? "")] };
        return new FootnoteReferenceRun(marks);
      }
      const run = new TextRun({
        text: inline.text,
        bold: inline.bold || extra.bold,
        italics: inline.italic,
        font: inline.code ? "Consolas" : undefined,
        style: inline.link ? "Hyperlink" : undefined,
      });
      return inline.link && /^https?:|^mailto:/i.test(inline.link) ? new ExternalHyperlink({ link: inline.link, children: [run] }) : run;
    });

  const block = (item: Block) => {
    switch (item.kind) {
      case "heading":
        return new Paragraph({ heading: HeadingLevel[HEADINGS[Math.min(item.depth, 6) - 1]!], children: runs(item.inlines) });
      case "paragraph":
        return new Paragraph({ children: runs(item.inlines) });
      case "quote":
        return new Paragraph({ style: "IntenseQuote", children: runs(item.inlines) });
      case "list-item":
        return item.ordered
          ? new Paragraph({ indent: { left: 360 * (item.level + 1), hanging: 360 }, children: [new TextRun(`${item.number}.\t`), ...runs(item.inlines)] })
          : new Paragraph({ bullet: { level: Math.min(item.level, 8) }, children: runs(item.inlines) });
      case "code":
        return item.text.split("\n").map((line) => new Paragraph({ children: [new TextRun({ text: line, font: "Consolas", size: 20 })] }));
      case "rule":
        return new Paragraph({ border: { bottom: { style: "single", size: 6, color: "999999", space: 1 } }, children: [] });
      case "table": {
        const columns = Math.max(...item.rows.map((row) => row.length));
        return new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: item.rows.map(
            (row, index) =>
              new TableRow({
                tableHeader: index === 0 ? true : undefined,
                children: Array.from(
                  { length: columns },
                  (_, column) =>
                    new TableCell({
                      shading: index === 0 ? { type: ShadingType.CLEAR, fill: "E7E6E6", color: "auto" } : undefined,
                      children: [new Paragraph({ children: runs(row[column] ?? [], { bold: index === 0 }) })],
                    }),
                ),
              }),
          ),
        });
      }
    }
  };

  const children = [new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(model.title)] }), ...model.blocks.flatMap(block)];
  const document = new Document({ title: model.title, creator: "SAGE", footnotes, sections: [{ children }] });
  return Packer.toBuffer(document);
}
