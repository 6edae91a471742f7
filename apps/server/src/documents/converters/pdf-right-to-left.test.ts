import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { convertPdf } from "./convert-pdf.ts";
import { isMostlyUnreadable } from "./text-readability.ts";
import { closeOcr } from "../ocr/ocr-engine.ts";
import { ARABIC_FONT, makeRightToLeftPdf } from "../test/test-right-to-left-pdf.ts";

afterAll(closeOcr);

// Justified Arabic as Word exports it: words stretched with tatweel (U+0640); and Persian words joined by ZWNJ.
const JUSTIFIED_ARABIC = ["وافـــق مجلـــس الإدارة علـــى ميـــزانية مشـــروع الصقـــر", "للعـــام القـــادم بعـــد مراجعـــة التقـــرير السنـــوي"];
const PERSIAN = "هیئت‌مدیره بودجه‌ی پروژه‌ی شاهین را برای سال آینده تصویب می‌کند";

describe.skipIf(!existsSync(ARABIC_FONT))("right-to-left text in a PDF", () => {
  it("judges stretched Arabic and Persian words joined by ZWNJ as words", () => {
    expect(isMostlyUnreadable(JUSTIFIED_ARABIC.join(" "))).toBe(false);
    expect(isMostlyUnreadable(PERSIAN)).toBe(false);
  });

  it("keeps justified Arabic and Persian text layers, in reading order, instead of replacing them by OCR", async () => {
    const document = await convertPdf(await makeRightToLeftPdf([...JUSTIFIED_ARABIC, PERSIAN]));
    expect(document.ocrPages).toBeUndefined();
    // pdf.js drops the zero-width ZWNJ from text it extracts; the words around it are what must survive.
    const text = document.sections.map((section) => section.text.replaceAll("\u200c", ""));
    expect(text).toEqual([[...JUSTIFIED_ARABIC.map((line) => line.replaceAll("\u0640", "")), PERSIAN.replaceAll("\u200c", "")].join("\n")]);
  });
});
