import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";

const crlf = (lines: string[]) => lines.join("\r\n");

const HTML_MAIL = crlf([
  "From: Jana Novak <jana@example.com>",
  "To: Bob Smith <bob@example.com>, eve@example.com",
  "Subject: Falcon budget",
  "Date: Mon, 4 Mar 2024 10:00:00 +0100",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="part"',
  "",
  "--part",
  "Content-Type: text/html; charset=utf-8",
  "",
  "<html><body><h2>Budget</h2><p>The <b>Falcon</b> budget is EUR 4.2m.</p><ul><li>Telescopes</li><li>Mirrors</li></ul><script>track()</script></body></html>",
  "--part",
  "Content-Type: text/plain; name=notes.txt",
  "Content-Disposition: attachment; filename=notes.txt",
  "",
  "Attached notes about the Vega supplier.",
  "--part",
  "Content-Type: application/octet-stream; name=tool.exe",
  "Content-Disposition: attachment; filename=tool.exe",
  "",
  "MZ",
  "--part--",
  "",
]);

const PLAIN_REPLY = crlf([
  "From: Bob <bob@example.com>",
  "To: jana@example.com",
  "Subject: Re: Falcon budget",
  "Date: Tue, 5 Mar 2024 11:00:00 +0100",
  "",
  ">From the board: approved on Tuesday.",
  "",
]);

describe("e-mail", () => {
  it("reads the headers and an HTML body as markdown, and returns attachments of supported types", async () => {
    const document = await convertFile("eml", Buffer.from(HTML_MAIL));
    expect(document.sections).toEqual([
      {
        // The day it was sent, as its header says it; knowledge puts the folder before it (issue 52 item 4).
        source: "4 Mar 2024",
        text: "From: Jana Novak <jana@example.com>\nTo: Bob Smith <bob@example.com>, eve@example.com\nDate: Mon, 4 Mar 2024 10:00:00 +0100\nSubject: Falcon budget\n\n## Budget\n\nThe Falcon budget is EUR 4.2m.\n\n- Telescopes\n- Mirrors",
      },
    ]);
    expect(document.attachments?.map((attachment) => [attachment.filename, attachment.bytes.toString("utf8").trim()])).toEqual([
      ["notes.txt", "Attached notes about the Vega supplier."],
    ]);
  });

  it("keeps both the plain and the HTML part of a message when they say different things", async () => {
    const alternative = (plain: string, html: string) =>
      crlf([
        "From: Jana Novak <jana@example.com>",
        "Subject: Vega contract",
        "MIME-Version: 1.0",
        'Content-Type: multipart/alternative; boundary="alt"',
        "",
        "--alt",
        "Content-Type: text/plain; charset=utf-8",
        "",
        plain,
        "--alt",
        "Content-Type: text/html; charset=utf-8",
        "",
        html,
        "--alt--",
        "",
      ]);
    const different = await convertFile(
      "eml",
      Buffer.from(alternative("The Vega contract renews on 1 June unless we cancel by 15 April.", "<p>Please see the <b>newsletter</b> in your browser.</p>")),
    );
    expect(different.sections[0]!.text).toContain("Please see the newsletter in your browser.");
    expect(different.sections[0]!.text).toContain("The Vega contract renews on 1 June unless we cancel by 15 April.");

    const same = await convertFile("eml", Buffer.from(alternative("The Vega contract renews on 1 June.", "<p>The <b>Vega</b> contract renews on 1 June.</p>")));
    expect(same.sections[0]!.text).toBe("From: Jana Novak <jana@example.com>\nSubject: Vega contract\n\nThe Vega contract renews on 1 June.");
  });

  it("reads a plain-text body", async () => {
    const document = await convertFile("eml", Buffer.from(PLAIN_REPLY));
    expect(document.sections[0]!.text).toContain("Subject: Re: Falcon budget\n\n>From the board: approved on Tuesday.");
    expect(document.attachments).toBeUndefined();
  });
});

describe("mbox", () => {
  it("keeps one item whose sections are the messages, each sourced by number and subject", async () => {
    const mbox = [
      `From jana@example.com Mon Mar  4 10:00:00 2024\n${HTML_MAIL.replace(/\r\n/g, "\n")}`,
      `From bob@example.com Tue Mar  5 11:00:00 2024\n${PLAIN_REPLY.replace(/\r\n/g, "\n")}`,
    ].join("\n");
    const document = await convertFile("mbox", Buffer.from(mbox));
    expect(document.sections.map((section) => section.source)).toEqual(["message 1: Falcon budget", "message 2: Re: Falcon budget"]);
    expect(document.sections[0]!.text).toContain("The Falcon budget is EUR 4.2m.");
    // mbox escapes body lines starting "From " as ">From "; the reader undoes it.
    expect(document.sections[1]!.text).toContain("\n\nFrom the board: approved on Tuesday.");
    expect(document.attachments?.map((attachment) => [attachment.filename, attachment.source])).toEqual([["notes.txt", "message 1: Falcon budget"]]);
  });

  it("keeps a file without messages as not processed", async () => {
    expect((await convertFile("mbox", Buffer.from(""))).notProcessedReason).toBe("The mailbox contains no messages");
  });
});
