import { decodeText } from "./decode-text.ts";
import type { ExtractedDocument, ExtractedSection } from "../extracted-document.ts";
import { runInThread } from "./run-in-thread.ts";
import type { SheetRows, SpreadsheetThreadData } from "./spreadsheet-reader.entry.ts";

/** A block's table stays under the chunker's target, so each chunk is one block that starts with its header row. */
const BLOCK_CHARS = 900;
/** The header is the first row at least this full, among the first rows (title rows above it are kept as text). */
const HEADER_SEARCH_ROWS = 10;

/** xlsx, xls, ods and csv: each sheet as Markdown tables in row blocks that repeat the header row. */
export async function convertSpreadsheet(bytes: Buffer, extension: "xlsx" | "xls" | "ods" | "csv"): Promise<ExtractedDocument> {
  const data = new Uint8Array(bytes);
  // SheetJS reads the workbook in a thread of its own (spreadsheet-reader.entry.ts).
  const workerData: SpreadsheetThreadData = extension === "csv" ? { text: decodeText(bytes) } : { bytes: data };
  const sheets = await runInThread<SpreadsheetThreadData, SheetRows[]>(new URL("./spreadsheet-reader.entry.ts", import.meta.url), {
    what: "The spreadsheet",
    workerData,
    transferList: extension === "csv" ? [] : [data.buffer],
  });
  const sections = sheets.flatMap(sheetSections);
  return sections.length > 0 ? { sections } : { sections: [], notProcessedReason: "The spreadsheet contains no data" };
}

interface Row {
  number: number;
  cells: string[];
}

export function sheetSections(sheet: SheetRows): ExtractedSection[] {
  let rows: Row[] = sheet.rows
    .map((cells, index) => ({ number: sheet.firstRow + index, cells: cells.map((cell) => cell.replace(/\s+/g, " ").trim()) }))
    .filter((row) => row.cells.some(Boolean));
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((row) => row.cells.length));
  const used = Array.from({ length: width }, (_, column) => rows.some((row) => row.cells[column]));
  rows = rows.map((row) => ({
    number: row.number,
    cells: Array.from({ length: width }, (_, column) => row.cells[column] ?? "").filter((_, column) => used[column]),
  }));

  const filled = (row: Row) => row.cells.filter(Boolean).length;
  const widest = Math.max(...rows.slice(0, HEADER_SEARCH_ROWS).map(filled));
  const headerIndex = rows.findIndex((row, index) => index < HEADER_SEARCH_ROWS && filled(row) >= Math.max(1, widest / 2));
  const preamble = rows.slice(0, headerIndex).map((row) => row.cells.filter(Boolean).join(" "));
  const header = rows[headerIndex]!;
  const headerLines = [tableRow(header.cells), tableRow(header.cells.map(() => "---"))];

  const sections: ExtractedSection[] = [];
  let block: Row[] = [];
  let size = 0;
  const flush = (first: Row, last: Row) => {
    const lines = [...(sections.length === 0 ? preamble : []), ...headerLines, ...block.map((row) => tableRow(row.cells))];
    sections.push({ source: `sheet ${sheet.name}, rows ${first.number}-${last.number}`, text: lines.join("\n") });
    block = [];
    size = 0;
  };
  for (const row of rows.slice(headerIndex + 1)) {
    const length = tableRow(row.cells).length + 1;
    if (block.length > 0 && headerLines.join("\n").length + size + length > BLOCK_CHARS) flush(block[0]!, block.at(-1)!);
    block.push(row);
    size += length;
  }
  if (block.length > 0) flush(block[0]!, block.at(-1)!);
  else flush(header, header);
  return sections;
}

const tableRow = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`;
