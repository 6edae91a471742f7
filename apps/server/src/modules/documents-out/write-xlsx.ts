import { DOCUMENT_TEXTS } from "@sage/contracts/documents-out";
import { inlineText, type Block, type DocumentModel } from "./markdown-document.ts";

/** A cell's value: numbers as numbers (1,234.5 and 12% too), so the sheet can sum them; anything else as text. */
export function cellValue(text: string): string | number | { percent: number } {
  const trimmed = text.trim();
  if (/^-?(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/.test(trimmed)) return Number(trimmed.replaceAll(",", ""));
  const percent = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
  if (percent) return { percent: Number(percent[1]) / 100 };
  return trimmed;
}

/** Excel's rules for a sheet's name: 31 characters, none of []:*?/\, unique in the workbook. */
export function sheetName(wanted: string, taken: Set<string>): string {
  const base =
    wanted
      .replace(/[[\]:*?/\\]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 31) || "Sheet";
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 3)} (${n})`;
  taken.add(name.toLowerCase());
  return name;
}

/** Each table with the heading above it (the sheet's name), or the whole text in one column when it has none. */
function sheetsOf(model: DocumentModel): Array<{ name: string; rows: string[][]; header: boolean }> {
  const sheets: Array<{ name: string; rows: string[][]; header: boolean }> = [];
  let heading = "";
  for (const block of model.blocks) {
    if (block.kind === "heading") heading = inlineText(block.inlines);
    if (block.kind === "table") {
      sheets.push({ name: heading || `${model.title} ${sheets.length + 1}`, rows: block.rows.map((row) => row.map(inlineText)), header: true });
      heading = "";
    }
  }
  if (sheets.length > 0) return sheets;
  const lines = model.blocks.flatMap((block: Block) =>
    "inlines" in block ? [inlineText(block.inlines)] : block.kind === "code" ? block.text.split("\n") : [],
  );
  return [{ name: model.title, rows: lines.map((line) => [line]), header: false }];
}

/** A workbook: a sheet per table (header row bold and frozen, numbers as numbers), and a Sources sheet when it cites. */
export async function writeXlsx(model: DocumentModel): Promise<Buffer> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "SAGE";
  workbook.title = model.title;
  const taken = new Set<string>();
  for (const planned of sheetsOf(model)) {
    const sheet = workbook.addWorksheet(sheetName(planned.name, taken), planned.header ? { views: [{ state: "frozen", ySplit: 1 }] } : {});
    planned.rows.forEach((row, rowIndex) => {
      const values = row.map((text) => (planned.header && rowIndex === 0 ? text : cellValue(text)));
      const added = sheet.addRow(values.map((value) => (typeof value === "object" ? value.percent : value)));
      values.forEach((value, column) => {
        if (typeof value === "object") added.getCell(column + 1).numFmt = "0%";
      });
      if (planned.header && rowIndex === 0) added.font = { bold: true };
    });
    sheet.columns.forEach((column, index) => {
      const longest = Math.max(...planned.rows.map((row) => (row[index] ?? "").length), 8);
      column.width = Math.min(longest + 2, 60);
    });
  }
  if (model.notes.length > 0) {
    const sources = workbook.addWorksheet(sheetName(DOCUMENT_TEXTS.sourcesSheet, taken));
    for (const note of model.notes) sources.addRow([note.n, note.text]);
    sources.getColumn(2).width = 60;
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
