import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";
import { makeWorkbook } from "../test/test-office-files.ts";

const HEADER = ["Region", "Item", "Cost"];
const budgetRows = (count: number) => [
  HEADER,
  ...Array.from({ length: count }, (_, index) => [index % 2 ? "North" : "South", `Telescope model ${index + 1}`, 1000 + index]),
];

describe("spreadsheets", () => {
  it("splits a long sheet into row blocks that each start with the header row, sourced by sheet and rows", async () => {
    const document = await convertFile("xlsx", makeWorkbook({ Budget: budgetRows(60), Owners: [["Owner"], ["Jana Nováková"]] }, "xlsx"));
    const budget = document.sections.filter((section) => section.source.startsWith("sheet Budget"));
    expect(budget.length).toBeGreaterThan(1);
    for (const section of budget) expect(section.text.startsWith("| Region | Item | Cost |\n| --- | --- | --- |\n")).toBe(true);
    expect(budget[0]!.source).toMatch(/^sheet Budget, rows 2-\d+$/);
    expect(budget.at(-1)!.source).toMatch(/^sheet Budget, rows \d+-61$/);
    // Row 41 of the sheet (model 40) is in the block whose range covers 41.
    const holder = budget.find((section) => section.text.includes("| North | Telescope model 40 | 1039 |"))!;
    const [, from, to] = /rows (\d+)-(\d+)/.exec(holder.source)!.map(Number);
    expect(from).toBeLessThanOrEqual(41);
    expect(to).toBeGreaterThanOrEqual(41);
    for (const section of document.sections) expect(section.text.length).toBeLessThanOrEqual(1000);
    expect(document.sections.at(-1)).toEqual({ source: "sheet Owners, rows 2-2", text: "| Owner |\n| --- |\n| Jana Nováková |" });
  });

  it.each([
    ["xls", "biff8"],
    ["ods", "ods"],
  ] as const)("reads %s workbooks", async (extension, bookType) => {
    const document = await convertFile(
      extension,
      makeWorkbook(
        {
          Forecast: [
            ["Quarter", "Revenue"],
            ["Q3", "Falcon 4.2m"],
          ],
        },
        bookType,
      ),
    );
    expect(document.sections).toEqual([{ source: "sheet Forecast, rows 2-2", text: "| Quarter | Revenue |\n| --- | --- |\n| Q3 | Falcon 4.2m |" }]);
  });

  it("keeps title rows above the header as text in the first block", async () => {
    const document = await convertFile("xlsx", makeWorkbook({ Plan: [["Quarterly budget 2025"], [], ...budgetRows(2)] }, "xlsx"));
    expect(document.sections).toEqual([
      {
        source: "sheet Plan, rows 4-5",
        text: "Quarterly budget 2025\n| Region | Item | Cost |\n| --- | --- | --- |\n| South | Telescope model 1 | 1000 |\n| North | Telescope model 2 | 1001 |",
      },
    ]);
  });

  it("reads CSV with a byte-order mark, semicolons and quoted commas, keeping values as written", async () => {
    const csv = '\uFEFFName;City;Amount;Code\n"Novák, Jan";Praha;1 200;007\nSmith;London;300;010\n';
    const document = await convertFile("csv", Buffer.from(csv, "utf8"));
    expect(document.sections).toEqual([
      {
        source: "sheet Sheet1, rows 2-3",
        text: "| Name | City | Amount | Code |\n| --- | --- | --- | --- |\n| Novák, Jan | Praha | 1 200 | 007 |\n| Smith | London | 300 | 010 |",
      },
    ]);
  });

  it("keeps an empty workbook as not processed", async () => {
    const document = await convertFile("xlsx", makeWorkbook({ Empty: [] }, "xlsx"));
    expect(document.notProcessedReason).toBe("The spreadsheet contains no data");
  });
});
