import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { makeDocx, makePdf } from "../../apps/server/src/documents/test/test-documents.ts";
import { makeScannedPdf, renderA4Page, renderTextImage } from "../../apps/server/src/documents/test/test-images.ts";
import { makePptx, makeWorkbook } from "../../apps/server/src/documents/test/test-office-files.ts";
import { createUser } from "../support/users.ts";

/** A scan past the size from which a stored PDF's text is read in a process of its own (5 MB of data no page shows). */
async function largeScan(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.load(await makeScannedPdf([renderA4Page(lines, 150)]));
  pdf.context.register(pdf.context.stream(randomBytes(5 * 1_048_576)));
  return Buffer.from(await pdf.save());
}

// Source-run tests bundle the reader processes and threads themselves; only here are the ones in dist/ started
// (decision 025): the conversion process, the PDF text reader as a thread and as a process, the spreadsheet,
// office, calendar and RTF threads, and the OCR process.
test("the built server reads each kind of document with the reader built for it", async ({ playwright, baseURL }) => {
  test.setTimeout(240_000);
  const account = await createUser("readers");
  const api = await playwright.request.newContext({ baseURL });
  expect((await api.post("/api/auth/login", { data: { username: account.username, password: account.password } })).status()).toBe(200);
  const documents: Array<[string, Buffer, string]> = [
    ["report.pdf", await makePdf([["Herons wade in the Kestrel marsh."]]), "Herons wade in the Kestrel marsh."],
    ["plan.docx", await makeDocx(), "The board approved the Falcon expansion"],
    [
      "forecast.xlsx",
      makeWorkbook(
        {
          Forecast: [
            ["Quarter", "Revenue"],
            ["Q3", "Osprey 4.2m"],
          ],
        },
        "xlsx",
      ),
      "Osprey 4.2m",
    ],
    ["review.pptx", await makePptx([{ title: "Quarterly review", bullets: ["Revenue rose in the Lyra region"] }]), "Revenue rose in the Lyra region"],
    [
      "board.ics",
      Buffer.from(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20250304T100000Z\r\nSUMMARY:Vega merger vote\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      ),
      "Event: Vega merger vote",
    ],
    ["letter.rtf", Buffer.from("{\\rtf1\\ansi{\\fonttbl\\f0 Helvetica;}\\f0 The Lynx contract renews in June.\\par}"), "The Lynx contract renews in June."],
    ["memo.png", renderTextImage(["The Draco memo was approved on Monday."]), "The Draco memo was approved on Monday."],
    ["archive-scan.pdf", await largeScan(["The Cygnus lease ends in March."]), "The Cygnus lease ends in March."],
  ];
  for (const [name, buffer] of documents) {
    const response = await api.post("/api/upload", {
      multipart: { conversationId: "0", parentId: "0", file: { name, mimeType: "application/octet-stream", buffer } },
    });
    // 200 when read within the request, 202 when it goes on in the background.
    expect([200, 202], name).toContain(response.status());
  }

  type Item = { name: string; status: string; statusReason: string | null; chunkCount: number; ocrPages: number[] };
  let items: Item[] = [];
  await expect
    .poll(
      async () => {
        items = await (await api.get("/api/files")).json();
        return items.filter((item) => ["queued", "processing"].includes(item.status)).length;
      },
      { timeout: 200_000 },
    )
    .toBe(0);
  const byName = new Map(items.map((item) => [item.name, item]));
  for (const [name, , text] of documents) {
    expect(byName.get(name), name).toMatchObject({ status: "ready", statusReason: null });
    const found = await (await api.post("/api/search", { data: { query: text } })).json();
    expect(
      found.map((result: { content: string; metadata: { filename: string } }) => [result.metadata.filename, result.content]),
      name,
    ).toContainEqual([name, expect.stringContaining(text)]);
  }
  expect(byName.get("memo.png")!.ocrPages).toEqual([1]);
  expect(byName.get("archive-scan.pdf")!.ocrPages).toEqual([1]);
  await api.dispose();
});
