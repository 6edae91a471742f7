import { describe, expect, it } from "vitest";
import { convertDoc } from "./convert-doc.ts";
import { makeWord6Doc } from "../test/test-office-files.ts";

describe("Word 6 and Word 95 .doc files", () => {
  it("reads the text of a Word 6 document (refused before with 'Invalid magic number')", async () => {
    const doc = makeWord6Doc([
      "Minutes of the Falcon board, 3 March 1996",
      "The board approved the café budget for the northern region.",
      "Page \u0013 PAGE \u00141\u0015 of the minutes",
    ]);
    const document = await convertDoc(doc);
    expect(document.notProcessedReason).toBeUndefined();
    expect(document.sections.map((section) => section.text).join("\n")).toBe(
      "Minutes of the Falcon board, 3 March 1996\nThe board approved the café budget for the northern region.\nPage 1 of the minutes",
    );
  });

  it("decodes a Russian Word 6 document in its language's code page", async () => {
    const doc = makeWord6Doc(["Совет директоров одобрил расширение."], { lid: 0x0419, codePage: "windows-1251" });
    const document = await convertDoc(doc);
    expect(document.sections.map((section) => section.text)).toEqual(["Совет директоров одобрил расширение."]);
  });

  it("still refuses an OLE file that is not a Word document, with the reader's reason", async () => {
    const notWord = makeWord6Doc(["x"]);
    notWord.writeUInt16LE(0x1234, notWord.indexOf(Buffer.from([0xdc, 0xa5])));
    await expect(convertDoc(notWord)).rejects.toThrow(/The DOC file could not be read/);
  });
});
