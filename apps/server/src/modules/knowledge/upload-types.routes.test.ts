import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { makeOdp, makeOdt, makePptx, makeWorkbook } from "../../documents/test/test-office-files.ts";
import { makeScannedPdf, renderA4Page, renderTextImage } from "../../documents/test/test-images.ts";

// Every type issue 19 added, through POST /api/upload and then search: the phrase is found in the right file
// with the source a citation shows (metadata.source falls back to the file name when a format has no unit).
let t: TestApp;
let kb: ReturnType<typeof knowledgeClient>;
beforeAll(async () => {
  t = await createTestApp();
  kb = knowledgeClient(t, await t.login());
});
afterAll(async () => t?.close());

const crlf = (lines: string[]) => lines.join("\r\n");
const mail = (subject: string, body: string) =>
  crlf([`From: Jana <jana@example.com>`, "To: bob@example.com", `Subject: ${subject}`, "Date: Mon, 4 Mar 2024 10:00:00 +0100", "", body, ""]);

interface Case {
  filename: string;
  content: () => Promise<Buffer> | Buffer;
  query: string;
  source: string | RegExp;
}

const CASES: Case[] = [
  {
    filename: "deck.pptx",
    content: () => makePptx([{ title: "Intro" }, { title: "Albatross rollout", bullets: ["Albatross ships in April"] }]),
    query: "Albatross ships",
    source: "slide 2",
  },
  {
    filename: "deck.odp",
    content: () => makeOdp([{ title: "Cormorant pricing", bullets: ["Cormorant tier costs more"] }]),
    query: "Cormorant tier",
    source: "slide 1",
  },
  {
    filename: "book.xlsx",
    content: () =>
      makeWorkbook(
        {
          Budget: [
            ["Line", "Cost"],
            ["Gannet hangar", 4100],
          ],
        },
        "xlsx",
      ),
    query: "Gannet hangar",
    source: "sheet Budget, rows 2-2",
  },
  {
    filename: "book.xls",
    content: () =>
      makeWorkbook(
        {
          Costs: [
            ["Line", "Cost"],
            ["Puffin lease", 900],
          ],
        },
        "biff8",
      ),
    query: "Puffin lease",
    source: "sheet Costs, rows 2-2",
  },
  {
    filename: "book.ods",
    content: () =>
      makeWorkbook(
        {
          Plan: [
            ["Step", "Owner"],
            ["Shearwater audit", "Eve"],
          ],
        },
        "ods",
      ),
    query: "Shearwater audit",
    source: "sheet Plan, rows 2-2",
  },
  { filename: "table.csv", content: () => Buffer.from("Item,Owner\nPetrel migration,Bob\n"), query: "Petrel migration", source: /^sheet .+, rows 2-2$/ },
  {
    filename: "note.eml",
    content: () => Buffer.from(mail("Skua supplier", "The Skua supplier delivers on Fridays.")),
    query: "Skua supplier delivers",
    // A mail's passages name the day it was sent, as its Date header says (issue 52 item 4); the file is the filename.
    source: "4 Mar 2024",
  },
  {
    filename: "box.mbox",
    content: () =>
      Buffer.from(
        `From jana@example.com Mon Mar  4 10:00:00 2024\n${mail("Hello", "Nothing here.").replaceAll("\r\n", "\n")}\nFrom bob@example.com Tue Mar  5 10:00:00 2024\n${mail("Tern hiring", "The Tern team hires two engineers.").replaceAll("\r\n", "\n")}\n`,
      ),
    query: "Tern team hires",
    source: "message 2: Tern hiring",
  },
  {
    filename: "cal.ics",
    content: () =>
      Buffer.from(
        crlf([
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//SAGE test//EN",
          "BEGIN:VEVENT",
          "UID:e1",
          "DTSTAMP:20240301T000000Z",
          "DTSTART:20240304T100000Z",
          "SUMMARY:Plover review",
          "DESCRIPTION:Review the Plover contract.",
          "END:VEVENT",
          "END:VCALENDAR",
          "",
        ]),
      ),
    query: "Plover contract",
    source: "event 2024-03-04: Plover review",
  },
  {
    filename: "notes.md",
    content: () => Buffer.from("# Intro\nNothing.\n\n# Grebe pricing\nGrebe licences cost less this year."),
    query: "Grebe licences",
    source: "Grebe pricing",
  },
  {
    filename: "page.html",
    content: () =>
      Buffer.from(
        "<html><body><article><h1>Egret report</h1><p>The Egret office doubled its revenue this quarter, the board heard on Monday.</p></article></body></html>",
      ),
    query: "Egret office doubled",
    source: "Egret report",
  },
  {
    filename: "memo.rtf",
    content: () => Buffer.from(String.raw`{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 The Avocet budget was approved.\par}`, "latin1"),
    query: "Avocet budget approved",
    source: "memo.rtf",
  },
  {
    filename: "minutes.odt",
    content: () => makeOdt([{ heading: "Curlew minutes", paragraphs: ["The Curlew project starts in May."] }]),
    query: "Curlew project starts",
    source: "Curlew minutes",
  },
  { filename: "scan.png", content: () => renderTextImage(["Quarterly report of the Merlin project"]), query: "Merlin project", source: "scan.png" },
  { filename: "scan.pdf", content: () => makeScannedPdf([renderA4Page(["Contract with the Dunlin shipyard"])]), query: "Dunlin shipyard", source: "page 1" },
];

describe("each new type through POST /api/upload, found by search", () => {
  it("finds a phrase of each in the right file with the right source", async () => {
    for (const each of CASES) {
      const response = await kb.upload({ description: each.filename }, { filename: each.filename, content: await each.content() });
      expect(response.statusCode, each.filename).toBeLessThan(300);
    }
    await t.jobs.idle();
    const cookie = await t.login();
    for (const each of CASES) {
      const hits = (await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query: each.query, limit: 3 } })).json() as Array<{
        metadata: { filename: string; source: string };
      }>;
      expect(hits[0]?.metadata.filename, each.query).toBe(each.filename);
      if (typeof each.source === "string") expect(hits[0]!.metadata.source, each.filename).toBe(each.source);
      else expect(hits[0]!.metadata.source, each.filename).toMatch(each.source);
    }
  });
});
