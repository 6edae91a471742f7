import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { convertFile } from "../../apps/server/src/documents/converters/convert-file.ts";
import type { ExtractedDocument } from "../../apps/server/src/documents/extracted-document.ts";
import { makeScannedPdf, renderA4Page, renderTextImage } from "../../apps/server/src/documents/test/test-images.ts";
import { makeOdp, makeOdt, makePptx, makeWorkbook } from "../../apps/server/src/documents/test/test-office-files.ts";
import type { UploadExtension } from "../../apps/server/src/documents/upload-extension.ts";

interface TypeCheck {
  name: string;
  extension: UploadExtension;
  make(): Promise<Buffer> | Buffer;
  /** Each phrase must be found in a section whose source matches. */
  expect: Array<{ phrase: string; source: string | RegExp }>;
  /** Extra condition on the whole result (OCR pages, attachments). */
  also?: (document: ExtractedDocument) => string | null;
}

const DECK = [
  { title: "Harbour project review", bullets: ["Quay wall finished in May"], notes: "Ask about the crane lease" },
  { title: "Next steps", bullets: ["Tender for dredging opens in July"] },
];
const ledger = [
  ["Account", "Owner", "Balance"],
  ...Array.from({ length: 80 }, (_, index) => [`Account ${index + 1}`, index === 57 ? "Harbour trust" : "Operations", 5000 + index]),
];
const MAIL = [
  "From: Amara Osei <amara@example.com>",
  "To: board@example.com",
  "Subject: Dredging tender",
  "Date: Wed, 2 Jul 2025 09:30:00 +0200",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="b"',
  "",
  "--b",
  "Content-Type: text/html; charset=utf-8",
  "",
  "<p>The <i>dredging tender</i> closes on 18 July.</p>",
  "--b",
  'Content-Type: text/csv; name="bids.csv"',
  'Content-Disposition: attachment; filename="bids.csv"',
  "",
  "Bidder,Amount\nNorthsea Works,410000",
  "--b--",
  "",
].join("\r\n");
const SECOND_MAIL = ["From: Lukas Brandt <lukas@example.com>", "Subject: Crane lease", "", "The crane lease ends in October."].join("\n");
const CALENDAR = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//eval//EN",
  "BEGIN:VEVENT",
  "UID:e1",
  "DTSTAMP:20250101T000000Z",
  "DTSTART:20250918T140000Z",
  "DTEND:20250918T150000Z",
  "SUMMARY:Harbour trust review",
  "LOCATION:Quay office",
  "ATTENDEE;CN=Amara Osei:mailto:amara@example.com",
  "DESCRIPTION:Agree the dredging budget.",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");
const PAGE_HTML =
  "<html><head><title>Harbour memo</title></head><body><h1>Harbour memo</h1><p>The quay wall was finished in May, two weeks early.</p></body></html>";
const SCAN_LINES = ["Lease agreement for the quay office.", "The tenant pays rent on the first day of each month."];
const pngOf = () => renderTextImage(["The harbour master signed the berth permit."]);
const imageSource = { phrase: "harbour master signed the berth permit", source: "" };
const ocrPagesAre = (pages: number[]) => (document: ExtractedDocument) =>
  JSON.stringify(document.ocrPages) === JSON.stringify(pages) ? null : `ocrPages ${JSON.stringify(document.ocrPages)}`;

const CHECKS: TypeCheck[] = [
  {
    name: "pptx",
    extension: "pptx",
    make: () => makePptx(DECK),
    expect: [
      { phrase: "Quay wall finished in May", source: "slide 1" },
      { phrase: "Ask about the crane lease", source: "slide 1" },
      { phrase: "Tender for dredging opens in July", source: "slide 2" },
    ],
  },
  {
    name: "odp",
    extension: "odp",
    make: () => makeOdp(DECK),
    expect: [
      { phrase: "Ask about the crane lease", source: "slide 1" },
      { phrase: "Tender for dredging opens in July", source: "slide 2" },
    ],
  },
  ...(["xlsx", "xls", "ods"] as const).map((extension): TypeCheck => ({
    name: extension,
    extension,
    make: () => makeWorkbook({ Ledger: ledger }, extension === "xls" ? "biff8" : extension),
    expect: [
      { phrase: "| Account | Owner | Balance |", source: /^sheet Ledger, rows \d+-\d+$/ },
      { phrase: "| Account 58 | Harbour trust | 5057 |", source: /^sheet Ledger, rows (\d+)-(\d+)$/ },
    ],
    also: (document) => {
      const holder = document.sections.find((section) => section.text.includes("Harbour trust"));
      const [, from, to] = /rows (\d+)-(\d+)/.exec(holder?.source ?? "")?.map(Number) ?? [];
      return from! <= 59 && to! >= 59 && holder!.text.startsWith("| Account | Owner | Balance |") ? null : `row 59 cited as ${holder?.source}`;
    },
  })),
  {
    name: "csv",
    extension: "csv",
    make: () => Buffer.from("Bidder;Amount\nNorthsea Works;410 000\n"),
    expect: [{ phrase: "| Northsea Works | 410 000 |", source: "sheet Sheet1, rows 2-2" }],
  },
  {
    name: "eml",
    extension: "eml",
    make: () => Buffer.from(MAIL),
    expect: [
      { phrase: "Subject: Dredging tender", source: "" },
      { phrase: "The dredging tender closes on 18 July.", source: "" },
    ],
    also: (document) => (document.attachments?.[0]?.filename === "bids.csv" ? null : "attachment bids.csv missing"),
  },
  {
    name: "mbox",
    extension: "mbox",
    make: () =>
      Buffer.from(
        `From amara@example.com Wed Jul  2 09:30:00 2025\n${MAIL.replace(/\r\n/g, "\n")}\nFrom lukas@example.com Thu Jul  3 10:00:00 2025\n${SECOND_MAIL}\n`,
      ),
    expect: [
      { phrase: "dredging tender closes", source: "message 1: Dredging tender" },
      { phrase: "crane lease ends in October", source: "message 2: Crane lease" },
    ],
  },
  {
    name: "ics",
    extension: "ics",
    make: () => Buffer.from(CALENDAR),
    expect: [
      { phrase: "When: 2025-09-18 14:00 to 15:00 (UTC)", source: "event 2025-09-18: Harbour trust review" },
      { phrase: "Where: Quay office", source: /^event / },
      { phrase: "Amara Osei <amara@example.com>", source: /^event / },
    ],
  },
  {
    name: "md",
    extension: "md",
    make: () => Buffer.from("# Harbour\n\nThe quay wall was finished in May."),
    expect: [{ phrase: "quay wall was finished in May", source: "Harbour" }],
  },
  ...(["html", "htm"] as const).map((extension): TypeCheck => ({
    name: extension,
    extension,
    make: () => Buffer.from(PAGE_HTML),
    expect: [{ phrase: "The quay wall was finished in May, two weeks early.", source: "Harbour memo" }],
  })),
  {
    name: "rtf",
    extension: "rtf",
    make: () => Buffer.from(String.raw`{\rtf1\ansi\uc1 Harbour memo: the quay wall costs \u8364\'80 2.1m.\par}`, "latin1"),
    expect: [{ phrase: "the quay wall costs € 2.1m.", source: "" }],
  },
  {
    name: "odt",
    extension: "odt",
    make: () => makeOdt([{ heading: "Harbour memo", paragraphs: ["The quay wall was finished in May."] }]),
    expect: [{ phrase: "quay wall was finished in May", source: "Harbour memo" }],
  },
  { name: "png", extension: "png", make: pngOf, expect: [imageSource], also: ocrPagesAre([1]) },
  ...(["jpg", "jpeg", "webp", "tif", "tiff"] as const).map((extension): TypeCheck => ({
    name: extension,
    extension,
    make: () =>
      sharp(pngOf())
        .toFormat(extension === "jpg" ? "jpeg" : extension === "tif" ? "tiff" : extension)
        .toBuffer(),
    expect: [imageSource],
  })),
  {
    name: "pdf (scanned)",
    extension: "pdf",
    make: async () => makeScannedPdf([renderA4Page(SCAN_LINES, 200), renderA4Page(["Notice period: three months."], 200)]),
    expect: [
      { phrase: "The tenant pays rent on the first day of each month.", source: "page 1" },
      { phrase: "Notice period: three months.", source: "page 2" },
    ],
    also: ocrPagesAre([1, 2]),
  },
  {
    name: "pdf (text layer of glyph codes)",
    extension: "pdf",
    // What pdf.js extracts from a font without a Unicode map: each glyph's code, here letters shifted by 29.
    make: () =>
      makeScannedPdf(
        [renderA4Page(SCAN_LINES, 200)],
        [SCAN_LINES.map((line) => line.replace(/[A-Za-z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) - 29)))],
      ),
    expect: [{ phrase: "Lease agreement for the quay office.", source: "page 1" }],
    also: (document) => (document.sections.some((section) => section.text.includes("/HDVH")) ? "garbage kept" : ocrPagesAre([1])(document)),
  },
];

export async function typeChecks() {
  const outcomes = [];
  for (const check of CHECKS) {
    const started = performance.now();
    let detail: string | null;
    try {
      const document = await convertFile(check.extension, await check.make());
      const missing = check.expect.filter(
        ({ phrase, source }) =>
          !document.sections.some(
            (section) => section.text.includes(phrase) && (typeof source === "string" ? section.source === source : source.test(section.source)),
          ),
      );
      detail =
        missing.length > 0
          ? `not found: ${missing.map(({ phrase, source }) => `"${phrase}" in ${String(source)}`).join("; ")} (sources: ${document.sections.map((section) => section.source).join(" | ")})`
          : (check.also?.(document) ?? null);
    } catch (error) {
      detail = (error as Error).message;
    }
    outcomes.push({ type: check.name, passed: detail === null, ms: Math.round(performance.now() - started), ...(detail ? { detail } : {}) });
  }
  return outcomes;
}
