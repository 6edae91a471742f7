import { performance } from "node:perf_hooks";
import { createWorker, OEM } from "tesseract.js";
import { convertImage } from "../../apps/server/src/documents/converters/convert-image.ts";
import { closeOcr, OCR_LANGUAGE_PATH } from "../../apps/server/src/documents/ocr/ocr-engine.ts";
import { renderA4Page } from "../../apps/server/src/documents/test/test-images.ts";
import { characterErrorRate, proseLines } from "./text-pages.ts";

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Clean A4 pages (10 pt Liberation Sans, 300 dpi PNG) read through SAGE's image path and by tesseract.js alone
 * (its defaults, the same local English data), in alternating rounds so a change in machine load hits both.
 * Each side reads one untimed page first, so neither pays its worker start-up in the timing.
 */
export async function ocrFigures(pageCount: number) {
  const pages = Array.from({ length: pageCount }, (_, index) => proseLines(index + 1, 48));
  const images = pages.map((lines) => renderA4Page(lines, 300));
  const references = pages.map((lines) => lines.join("\n"));

  const alone = await createWorker("eng", OEM.LSTM_ONLY, { langPath: OCR_LANGUAGE_PATH, gzip: true, cacheMethod: "none" });
  const readAlone = async (image: Buffer) => (await alone.recognize(image)).data.text;
  const readSage = async (image: Buffer) => (await convertImage(image)).sections.map((section) => section.text).join("\n\n");
  await readAlone(images[0]!);
  await readSage(images[0]!);

  const timing = { sage: 0, alone: 0 };
  const errors = { sage: [] as number[], alone: [] as number[] };
  const run = async (side: "sage" | "alone") => {
    for (const [index, image] of images.entries()) {
      const started = performance.now();
      const text = side === "sage" ? await readSage(image) : await readAlone(image);
      timing[side] += performance.now() - started;
      errors[side][index] = characterErrorRate(references[index]!, text);
    }
  };
  await run("alone");
  await run("sage");
  await run("sage");
  await run("alone");
  await alone.terminate();
  await closeOcr();

  const pagesPerSecond = { sage: (2 * pageCount) / (timing.sage / 1000), alone: (2 * pageCount) / (timing.alone / 1000) };
  return {
    pages: pageCount,
    render: "A4, 300 dpi, 10 pt Liberation Sans, PNG",
    characterErrorRate: {
      sage: round(mean(errors.sage)),
      sageWorstPage: round(Math.max(...errors.sage)),
      tesseractAlone: round(mean(errors.alone)),
      target: "<= 0.02",
    },
    pagesPerSecond: {
      sage: round(pagesPerSecond.sage, 3),
      tesseractAlone: round(pagesPerSecond.alone, 3),
      ratio: round(pagesPerSecond.sage / pagesPerSecond.alone, 3),
      target: ">= 0.8",
    },
    secondsPerPage: { sage: round(timing.sage / 1000 / (2 * pageCount), 2), tesseractAlone: round(timing.alone / 1000 / (2 * pageCount), 2) },
  };
}
