// Runs in a worker thread (convert-spreadsheet.ts starts it): SheetJS reads the workbook here, so a large sheet
// parses without stalling requests. Cells come back as the text Excel shows (number formats and dates applied).
import { createRequire } from "node:module";
import { replyToParent } from "./reply-to-parent.ts";

export type SpreadsheetThreadData = { text: string } | { bytes: Uint8Array };

export interface SheetRows {
  name: string;
  /** Sheet row number (1-based) of rows[0]. */
  firstRow: number;
  rows: string[][];
}

// The CommonJS build: it brings the code pages that old .xls files are written in (the ES module build does not).
const XLSX = createRequire(import.meta.url)("@e965/xlsx") as typeof import("@e965/xlsx");

replyToParent((data: SpreadsheetThreadData): SheetRows[] => {
  const workbook =
    "text" in data
      ? XLSX.read(data.text, { type: "string", raw: true, dense: true })
      : XLSX.read(data.bytes, { type: "buffer", dense: true, cellFormula: false, cellHTML: false });
  return workbook.SheetNames.map((name) => {
    const sheet = workbook.Sheets[name];
    if (!sheet || !sheet["!ref"]) return { name, firstRow: 1, rows: [] };
    const range = XLSX.utils.decode_range(sheet["!ref"]);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, blankrows: true, defval: "" });
    return { name, firstRow: range.s.r + 1, rows: rows.map((row) => row.map((cell) => String(cell))) };
  });
});
