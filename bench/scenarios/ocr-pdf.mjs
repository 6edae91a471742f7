import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import sharp from "sharp";
import { createWorker, OEM } from "tesseract.js";
import { OCR_LANGUAGE_PATH, OCR_LIMITS } from "../../apps/server/src/documents/ocr/ocr-engine.ts";
import { renderA4Page } from "../../apps/server/src/documents/test/test-images.ts";
import { figure, percentile, round } from "../lib/figure.mjs";
import { ingestScan, scanPageLines } from "../lib/scan-ingest.ts";

/**
 * tesseract.js alone reading pages of the same scan, each at the pixel count the server reads it at (A4 scaled to
 * OCR_LIMITS.maxPixels), after one untimed page: ms per page.
 */
async function tesseractAlone(pageIndexes) {
  const width = Math.floor(Math.sqrt(OCR_LIMITS.maxPixels * (8.27 / 11.69)));
  const images = await Promise.all(
    pageIndexes.map((page) =>
      sharp(renderA4Page(scanPageLines(page), 300))
        .resize({ width })
        .greyscale()
        .png()
        .toBuffer(),
    ),
  );
  const worker = await createWorker("eng", OEM.LSTM_ONLY, { langPath: OCR_LANGUAGE_PATH, gzip: true, cacheMethod: "none" });
  try {
    await worker.recognize(images[0]);
    const started = performance.now();
    for (const image of images.slice(1)) await worker.recognize(image);
    return (performance.now() - started) / (images.length - 1);
  } finally {
    await worker.terminate();
  }
}

/**
 * Issue 19's long scan: a 300-page image-only PDF (20 pages with --quick) ingested by the built server with no
 * embedder. /api/health is asked every 25 ms meanwhile (the limit: the same probe on the idle server for 10 s
 * before); memory is the server plus the processes it starts (conversion, OCR), sampled together every 100 ms
 * as the sum of their PSS (the figure with the target) and of their RSS;
 * pages/s is against tesseract.js alone on pages of the same scan, before and after the upload.
 */
export async function ocrPdf({ quick }) {
  const pages = quick ? 20 : 300;
  const aloneBefore = await tesseractAlone([0, 1, 2]);
  const run = await ingestScan({ pages });
  const aloneAfter = await tesseractAlone([3, 4, 5]);
  const aloneMsPerPage = (aloneBefore + aloneAfter) / 2;
  const load = { loadAverageBefore: run.loadAverage.before.map((value) => round(value, 2)), loadAverageAfter: loadavg().map((value) => round(value, 2)) };
  const prefix = `ocr.pdf${pages}`;
  // One point a second of [s, server MB, conversion MB, OCR MB], to see what grows with pages.
  mkdirSync(new URL("../results/", import.meta.url), { recursive: true });
  writeFileSync(new URL(`../results/${prefix}-memory.json`, import.meta.url), JSON.stringify(run.sampled.timeline));
  return [
    figure({
      name: `${prefix}_health_p99`,
      value: percentile(run.health, 99),
      unit: "ms",
      limit: percentile(run.healthIdle, 99),
      better: "lower",
      target: "<= 50 ms",
      params: {
        pages,
        probes: run.health.length,
        p50Ms: round(percentile(run.health, 50), 1),
        p90Ms: round(percentile(run.health, 90), 1),
        maxMs: round(Math.max(...run.health), 1),
        idleP50Ms: round(percentile(run.healthIdle, 50), 2),
        ...load,
      },
    }),
    // What the machine gives the server and its processes together: each page counted once, shared ones (the node
    // binary, mapped by all three) split between them. The plain sum of RSS counts the binary three times.
    figure({
      name: `${prefix}_peak_memory`,
      value: run.sampled.togetherPssMb,
      unit: "MB",
      better: "lower",
      target: "< 400 MB",
      params: {
        pages,
        measure: "sum of PSS",
        rssSumMb: round(run.sampled.togetherMb, 0),
        serverHwmMb: round(run.serverHwmMb, 0),
        sampleMs: run.sampled.sampleMs,
      },
    }),
    figure({
      name: `${prefix}_peak_rss`,
      value: run.sampled.togetherMb,
      unit: "MB",
      better: "lower",
      params: {
        pages,
        measure: "sum of RSS",
        serverHwmMb: round(run.serverHwmMb, 0),
        serverIdleMb: round(run.idleRssMb, 0),
        conversionPeakMb: round(run.sampled.conversionMb, 0),
        ocrPeakMb: round(run.sampled.ocrMb, 0),
        sampleMs: run.sampled.sampleMs,
        samples: run.sampled.samples,
        processesSeen: run.sampled.processes,
      },
    }),
    figure({
      name: `${prefix}_pages_per_s`,
      value: pages / (run.jobMs / 1000),
      unit: "pages/s",
      limit: 1000 / aloneMsPerPage,
      better: "higher",
      target: ">= 0.8 of limit",
      params: {
        pages,
        jobMs: run.jobMs,
        status: run.status,
        chunks: run.chunks,
        ocrPages: run.ocrPages,
        ocrFailedPages: run.ocrFailedPages,
        pdfMb: round(run.pdfBytes / 1_048_576, 1),
        aloneMsPerPage: [round(aloneBefore, 0), round(aloneAfter, 0)],
        ...load,
      },
    }),
  ];
}
