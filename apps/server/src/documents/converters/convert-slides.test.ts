import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";
import { makeOdp, makePptx, type SlideContent } from "../test/test-office-files.ts";

const DECK: SlideContent[] = [
  { title: "Board update 2025", bullets: ["Falcon expansion approved", "Two astronomers hired"], notes: "Mention the Vega supplier risk" },
  { title: "Budget", bullets: ["Telescopes EUR 4.2m"] },
];

describe.each([
  ["pptx", makePptx],
  ["odp", makeOdp],
] as const)("%s slides", (extension, make) => {
  it("reads each slide's text and speaker notes, with the slide as the source", async () => {
    const document = await convertFile(extension, await make(DECK));
    expect(document.sections.map((section) => section.source)).toEqual(["slide 1", "slide 2"]);
    expect(document.sections[0]!.text).toContain("Board update 2025");
    expect(document.sections[0]!.text).toContain("Falcon expansion approved");
    expect(document.sections[0]!.text).toContain("Speaker notes:\nMention the Vega supplier risk");
    expect(document.sections[1]!.text).toContain("Telescopes EUR 4.2m");
    expect(document.sections[1]!.text).not.toContain("Speaker notes");
  });
});

describe("slides", () => {
  it("refuses a file that is not a presentation with a clear error", async () => {
    await expect(convertFile("pptx", Buffer.from("not a zip"))).rejects.toThrow(/The presentation could not be read/);
  });
});
