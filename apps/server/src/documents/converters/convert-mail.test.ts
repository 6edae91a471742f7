import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";
import { renderTextImage } from "../test/test-images.ts";

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
        text: "From: Jana Novak <jana@example.com>\nTo: Bob Smith <bob@example.com>, eve@example.com\nDate: Mon, 4 Mar 2024 10:00:00 +0100\nSubject: Falcon budget\nAttachments: notes.txt, tool.exe\n\n## Budget\n\nThe Falcon budget is EUR 4.2m.\n\n- Telescopes\n- Mirrors",
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

/** A multipart/mixed message from Anna to the executive: its parts as header lines and a body each. */
const mixed = (subject: string, parts: Array<{ headers: string[]; body: string }>, options: { bom?: boolean; type?: string } = {}) =>
  Buffer.concat([
    Buffer.from(options.bom ? [0xef, 0xbb, 0xbf] : []),
    Buffer.from(
      crlf([
        "From: Anna Keller <anna@kestrel.example>",
        "To: Exec <exec@example.com>",
        `Subject: ${subject}`,
        "Date: Thu, 3 Dec 2026 10:00:00 +0100",
        "MIME-Version: 1.0",
        `Content-Type: ${options.type ?? "multipart/mixed"}; boundary="part"`,
        "",
        ...parts.flatMap((part) => ["--part", ...part.headers, "", part.body]),
        "--part--",
        "",
      ]),
    ),
  ]);

describe("what a hostile or odd mailbox holds (issue 52 items 5 and 6)", () => {
  it("reads a bounce whose words sit in a message/delivery-status part, and the returned message as its own .eml", async () => {
    const bounce = mixed(
      "Undelivered Mail Returned to Sender",
      [
        {
          headers: ["Content-Type: message/delivery-status"],
          body: "Your message to anna.keller@kestrel.example could not be delivered: the mailbox is full.\r\n\r\nFinal-Recipient: rfc822; anna.keller@kestrel.example\r\nStatus: 5.2.2",
        },
        {
          headers: ["Content-Type: message/rfc822"],
          body: crlf(["From: Exec <exec@example.com>", "Subject: Kestrel term sheet", "", "Please find the term sheet attached."]),
        },
        { headers: ["Content-Type: application/octet-stream"], body: "Diagnostic: the receiving server answered 552 mailbox full." },
      ],
      { type: 'multipart/report; report-type="delivery-status"' },
    );
    const document = await convertFile("eml", bounce);
    // Before: the headers alone.
    expect(document.sections[0]!.text).toContain("could not be delivered: the mailbox is full.");
    expect(document.sections[0]!.text).toContain("Please find the term sheet attached.");
    expect(document.sections[0]!.text).toContain("the receiving server answered 552 mailbox full.");
    expect(document.attachments?.map((attachment) => attachment.filename)).toEqual(["Kestrel term sheet.eml"]);
  });

  it("keeps the sender of a mail that starts with a byte-order mark", async () => {
    const document = await convertFile(
      "eml",
      mixed("Board pack", [{ headers: ["Content-Type: text/plain"], body: "The board pack is ready." }], { bom: true }),
    );
    // Before: "From:" was lost behind the mark.
    expect(document.sections[0]!.text).toMatch(/^From: Anna Keller <anna@kestrel\.example>\n/);
  });

  it("lists pictures the HTML shows and a forwarded mail as attachments; the forwarded one is read as a message of its own", async () => {
    const picture = renderTextImage(["Q3 revenue chart"]);
    const forward = mixed("Fwd: Kestrel term sheet", [
      {
        headers: ['Content-Type: multipart/related; boundary="rel"'],
        body: crlf([
          "--rel",
          "Content-Type: text/html",
          "",
          '<p>FYI, see below.</p><img src="cid:chart1">',
          "--rel",
          "Content-Type: image/png",
          "Content-ID: <chart1>",
          "Content-Transfer-Encoding: base64",
          "",
          picture.toString("base64"),
          "--rel--",
        ]),
      },
      {
        headers: ["Content-Type: message/rfc822", "Content-Disposition: inline"],
        body: crlf([
          "From: Lena Ortiz <lena@kestrel.example>",
          "Subject: Kestrel term sheet",
          "Date: Wed, 2 Dec 2026 09:00:00 +0100",
          "",
          "The valuation is 42 million.",
        ]),
      },
    ]);
    const document = await convertFile("eml", forward);
    expect(document.sections[0]!.text).toContain("Attachments: picture 1.png, Kestrel term sheet.eml");
    expect(document.sections[0]!.text).toContain("The valuation is 42 million.");
    expect(document.attachments?.map((attachment) => attachment.filename)).toEqual(["picture 1.png", "Kestrel term sheet.eml"]);
    const own = await convertFile("eml", document.attachments![1]!.bytes);
    expect(own.sections[0]!.text).toMatch(/^From: Lena Ortiz <lena@kestrel\.example>\n/);
    expect(own.sections[0]!.source).toBe("2 Dec 2026");
  });

  it("hands on at most the set number of attachments, and says how many were left and which were too large", async () => {
    const notes = Array.from({ length: 12 }, (_, n) => ({
      headers: [`Content-Type: text/plain; name=note-${n + 1}.txt`, `Content-Disposition: attachment; filename=note-${n + 1}.txt`],
      body: `Note ${n + 1} ${"x".repeat(n === 11 ? 3000 : 10)}`,
    }));
    const document = await convertFile("eml", mixed("Many notes", notes), { maxAttachments: 5, maxAttachmentBytes: 2048 });
    expect(document.attachments?.map((attachment) => attachment.filename)).toEqual(["note-1.txt", "note-2.txt", "note-3.txt", "note-4.txt", "note-5.txt"]);
    expect(document.attachmentsNotRead).toEqual({
      total: 12,
      overCount: 6,
      maxAttachments: 5,
      tooLarge: [{ filename: "note-12.txt", bytes: 3009 }],
      maxBytes: 2048,
    });
    expect(document.sections[0]!.text).toContain("Attachments: note-1.txt, note-2.txt");
    expect(document.sections[0]!.text).toContain("note-12.txt");
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
