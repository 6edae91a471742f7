import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { convertImage, NO_TEXT_IN_IMAGE_REASON, UNCLEAR_IMAGE_REASON } from "./convert-image.ts";
import { closeOcr, OCR_LANGUAGE_PATH } from "../ocr/ocr-engine.ts";
import { renderTextImage } from "../test/test-images.ts";

const LINES = ["The board approved the Falcon expansion.", "Signed in Prague on 3 March 2024."];
const textOf = (document: { sections: Array<{ text: string }> }) => document.sections.map((section) => section.text).join("\n");

afterAll(closeOcr);

// OCR takes seconds a page, and much longer on a busy machine.
describe("images read by OCR", () => {
  it("reads the text of a PNG and says it came from OCR", async () => {
    const document = await convertImage(renderTextImage(LINES));
    expect(textOf(document)).toContain("The board approved the Falcon expansion.");
    expect(textOf(document)).toContain("Signed in Prague on 3 March 2024.");
    expect(document.sections.map((section) => section.source)).toEqual([""]);
    expect(document.ocrPages).toEqual([1]);
    expect(document.notProcessedReason).toBeUndefined();
  });

  it.each(["jpeg", "webp"] as const)("reads a %s", async (format) => {
    const bytes = await sharp(renderTextImage(LINES)).toFormat(format, { quality: 90 }).toBuffer();
    expect(textOf(await convertImage(bytes))).toContain("Falcon expansion");
  });

  it("reads every page of a multi-page TIFF, each with its page as the source", async () => {
    const first = renderTextImage(["Page one covers the Orion budget."]);
    const second = renderTextImage(["Page two covers the Vega hiring plan."]);
    const { width, height } = await sharp(first).metadata();
    const resized = await sharp(second).resize(width, height, { fit: "contain", background: "#ffffff" }).png().toBuffer();
    const tiff = await sharp([first, resized], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const document = await convertImage(tiff);
    expect(document.sections.map((section) => section.source)).toEqual(["page 1", "page 2"]);
    expect(document.sections[0]!.text).toContain("Orion budget");
    expect(document.sections[1]!.text).toContain("Vega hiring plan");
    expect(document.ocrPages).toEqual([1, 2]);
  });

  it("reads small screenshot text (enlarged before recognition)", async () => {
    const document = await convertImage(renderTextImage(["Quarterly revenue rose to 4.2 million euros."], { dpi: 96, fontSize: 11 }));
    expect(textOf(document)).toContain("revenue rose to 4.2 million euros");
  });

  it.each([180, 90, 270])("reads a page scanned turned by %i degrees (orientation detection)", async (angle) => {
    const turned = await sharp(renderTextImage(LINES)).rotate(angle).png().toBuffer();
    const document = await convertImage(turned);
    expect(textOf(document)).toContain("The board approved the Falcon expansion.");
    expect(textOf(document)).toContain("Signed in Prague on 3 March 2024.");
  });

  it("reads French accents with the packaged French data", async () => {
    const document = await convertImage(renderTextImage(["Le conseil a approuvé le budget de l'été.", "Réunion prévue à Genève."]));
    expect(textOf(document)).toContain("Le conseil a approuvé le budget de l'été.");
    expect(textOf(document)).toContain("Réunion prévue à Genève.");
  });

  const dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  it.skipIf(!existsSync(dejavu))("marks Hebrew, a script it has no data for, as unclear instead of storing Latin garbage", async () => {
    const hebrew = renderTextImage(["הדירקטוריון אישר את ההרחבה לאזור הצפוני.", "ההכנסות עלו ב-12 אחוזים בשנה שעברה."], { fontFile: dejavu });
    const document = await convertImage(hebrew);
    expect(document.sections).toEqual([]);
    expect(document.ocrUnclearPages).toEqual([1]);
    expect(document.notProcessedReason).toBe(UNCLEAR_IMAGE_REASON);
  });

  it("reads with a language named in SAGE_OCR_LANGUAGES whose data is in SAGE_OCR_DATA_DIR", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "sage-ocr-languages-"));
    const saved = { languages: process.env.SAGE_OCR_LANGUAGES, dataDir: process.env.SAGE_OCR_DATA_DIR };
    try {
      // English data under a code no package has: found only in the folder.
      copyFileSync(path.join(OCR_LANGUAGE_PATH, "eng.traineddata.gz"), path.join(folder, "zzz.traineddata.gz"));
      Object.assign(process.env, { SAGE_OCR_LANGUAGES: "zzz", SAGE_OCR_DATA_DIR: folder });
      await closeOcr();
      expect(textOf(await convertImage(renderTextImage(LINES)))).toContain("Falcon expansion");
    } finally {
      await closeOcr();
      for (const [name, value] of [
        ["SAGE_OCR_LANGUAGES", saved.languages],
        ["SAGE_OCR_DATA_DIR", saved.dataDir],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("keeps an image without text as not processed, with the reason", async () => {
    const blank = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const document = await convertImage(blank);
    expect(document.sections).toEqual([]);
    expect(document.notProcessedReason).toBe(NO_TEXT_IN_IMAGE_REASON);
  });

  it("gives up a page over the time limit and still reads the next image", async () => {
    const slow = await convertImage(renderTextImage(LINES), { pageTimeoutMs: 1 });
    expect(slow.ocrFailedPages).toEqual([1]);
    expect(slow.sections).toEqual([]);
    expect(textOf(await convertImage(renderTextImage(LINES)))).toContain("Falcon expansion");
  });

  it.skipIf(process.platform !== "linux")("gives up a page when the recogniser passes its memory limit, and recovers", async () => {
    const heavy = await convertImage(renderTextImage(LINES), { maxProcessMb: 1 });
    expect(heavy.ocrFailedPages).toEqual([1]);
    expect(textOf(await convertImage(renderTextImage(LINES)))).toContain("Falcon expansion");
  });

  it("refuses bytes that are not an image with a clear error", async () => {
    await expect(convertImage(Buffer.from("not an image"))).rejects.toThrow(/The image could not be read/);
  });
});
