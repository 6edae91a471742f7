import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";
import { makeOdt } from "../test/test-office-files.ts";

const textOf = (document: { sections: Array<{ text: string }> }) => document.sections.map((section) => section.text).join("\n\n");

describe("text formats", () => {
  it("reads Markdown with its headings as sections", async () => {
    const document = await convertFile("md", Buffer.from("Intro line.\n\n# Falcon plan\n\nBuy telescopes.\n\n## Risks\n\nVega delays."));
    expect(document.sections.map((section) => section.source)).toEqual(["", "Falcon plan", "Risks"]);
    expect(document.sections[2]!.text).toBe("## Risks\n\nVega delays.");
  });

  it.each(["html", "htm"] as const)("reads a saved .%s page through the web-page path", async (extension) => {
    const html =
      "<html><head><title>Board memo</title></head><body><nav>Home</nav><h1>Board memo</h1><p>The Falcon expansion was approved.</p><table><tr><th>Item</th><th>Cost</th></tr><tr><td>Telescope</td><td>4200</td></tr></table></body></html>";
    const text = textOf(await convertFile(extension, Buffer.from(html)));
    expect(text).toContain("# Board memo");
    expect(text).toContain("The Falcon expansion was approved.");
    expect(text).toContain("| Item | Cost |\n| Telescope | 4200 |");
  });

  it.each([
    ["a bare fragment", "<p>Совет директоров одобрил проект Сокол.</p><p>Бюджет на телескопы увеличен.</p>"],
    ["text with no tags", "Совет директоров одобрил проект Сокол. Бюджет на телескопы увеличен."],
    ["a page with a head but no body tag", "<!DOCTYPE html><html><head><title>Сокол</title></head><p>Совет директоров одобрил проект Сокол.</p></html>"],
  ])("reads the text of %s, which was stored as 'no text'", async (_, html) => {
    const document = await convertFile("html", Buffer.from(html));
    expect(document.notProcessedReason).toBeUndefined();
    expect(textOf(document)).toContain("Совет директоров одобрил проект Сокол.");
  });

  it("decodes an HTML file by its declared charset", async () => {
    const html = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1250"></head><body><p>'),
      Buffer.from([0x50, 0x65, 0x6e, 0xec, 0x9e, 0x6e, 0xed]),
      Buffer.from(" prostředky</p></body></html>".replace("ř", "r")),
    ]);
    expect(textOf(await convertFile("html", html))).toContain("Peněžní");
  });

  it("reads RTF with Unicode escapes and code-page characters", async () => {
    const rtf = String.raw`{\rtf1\ansi\ansicpg1252\uc1{\fonttbl{\f0 Arial;}}\f0{\b Board minutes}\par \u268\'c8esk\u225\'e1 republika: caf\'e9 budget for Falcon.\par}`;
    const text = textOf(await convertFile("rtf", Buffer.from(rtf, "latin1")));
    expect(text).toBe("Board minutes\n\nČeská republika: café budget for Falcon.");
  });

  it("reads an RTF file saved with a .doc name", async () => {
    const text = textOf(await convertFile("doc", Buffer.from(String.raw`{\rtf1\ansi Falcon memo saved as doc.\par}`)));
    expect(text).toBe("Falcon memo saved as doc.");
  });

  it("reads ODT headings, paragraphs and tables, sectioned at headings", async () => {
    const odt = await makeOdt([
      {
        heading: "Quarterly plan",
        paragraphs: ["The board approved the Falcon expansion."],
        table: [
          ["Item", "Cost"],
          ["Telescope", "4200 EUR"],
        ],
      },
      { heading: "Risks", paragraphs: ["Vega supplier delays."] },
    ]);
    const document = await convertFile("odt", odt);
    expect(document.sections).toEqual([
      { source: "Quarterly plan", text: "# Quarterly plan\n\nThe board approved the Falcon expansion.\n\n| Item | Cost |\n| Telescope | 4200 EUR |" },
      { source: "Risks", text: "# Risks\n\nVega supplier delays." },
    ]);
  });
});
