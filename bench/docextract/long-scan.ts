import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from "pdf-lib";
import sharp from "sharp";
import { renderA4Page } from "../../apps/server/src/modules/knowledge/ingestion/test-images.ts";
import { jobDurationMs, uploadAndWait } from "../lib/ingest.mjs";
import { cacheDir } from "../lib/search-store.mjs";
import { memoryOf, ROOT, startSage } from "../lib/server.mjs";
import { proseLines } from "./text-pages.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? NaN;

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * An image-only PDF as an office scanner makes it: one black-and-white 300 dpi image per A4 page (Flate, about
 * 70 KB a page, so 300 pages stay within the default 50 MB upload limit), no text layer. Built once, cached.
 */
async function scannedReport(pages: number): Promise<string> {
  const file = path.join(cacheDir("docextract"), `scan-${pages}-bilevel-v1.pdf`);
  if (existsSync(file)) return file;
  const pdf = await PDFDocument.create();
  for (let page = 0; page < pages; page++) {
    const { data, info } = await sharp(renderA4Page(proseLines(1000 + page, 48), 300)).greyscale().raw().toBuffer({ resolveWithObject: true });
    const rowBytes = Math.ceil(info.width / 8);
    const bits = new Uint8Array(rowBytes * info.height).fill(0xff);
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) if (data[y * info.width * info.channels + x * info.channels]! < 128) bits[y * rowBytes + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    const image = pdf.context.register(pdf.context.flateStream(bits, { Type: "XObject", Subtype: "Image", Width: info.width, Height: info.height, ColorSpace: "DeviceGray", BitsPerComponent: 1 }));
    const target = pdf.addPage([595, 842]);
    const name = target.node.newXObject("Scan", image);
    target.pushOperators(pushGraphicsState(), concatTransformationMatrix(595, 0, 0, 842, 0, 0), drawObject(name), popGraphicsState());
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await pdf.save());
  return file;
}

/**
 * The long-scan case end to end: the built server ingests an image-only PDF of `pages` pages through
 * POST /api/upload while /api/health is called every 25 ms. Peak RSS is the server process's high-water mark; the
 * OCR process it starts is sampled beside it.
 */
export async function longScanFigures(pages: number) {
  execFileSync(process.execPath, ["build.mjs"], { cwd: path.join(ROOT, "apps/server"), stdio: "ignore" });
  const file = await scannedReport(pages);
  const bytes = readFileSync(file);
  const sage = await startSage({ label: "scan", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" } });
  try {
    const cookie = await sage.login();
    const idle = memoryOf(sage.pid);
    // The same probe for 10 s before the upload: on a shared machine, latency owes much to other load.
    const idleLatencies: number[] = [];
    for (const stopAt = performance.now() + 10_000; performance.now() < stopAt; await sleep(25)) {
      const started = performance.now();
      await fetch(`${sage.url}/api/health`).then((response) => response.arrayBuffer());
      idleLatencies.push(performance.now() - started);
    }
    const latencies: number[] = [];
    const peaks = { ocrProcessMb: 0, togetherMb: 0 };
    const memoryWatch = setInterval(() => {
      const server = memoryOf(sage.pid).rssMb;
      const children = childPids(sage.pid).map((pid) => memoryOf(pid).rssMb);
      const ocrProcess = Math.max(0, ...children.filter(Number.isFinite));
      peaks.ocrProcessMb = Math.max(peaks.ocrProcessMb, ocrProcess);
      peaks.togetherMb = Math.max(peaks.togetherMb, server + ocrProcess);
    }, 250);
    let ingesting = true;
    const probe = (async () => {
      while (ingesting) {
        const started = performance.now();
        await fetch(`${sage.url}/api/health`).then((response) => response.arrayBuffer());
        latencies.push(performance.now() - started);
        await sleep(25);
      }
    })();
    let item: { chunkCount: number; status: string };
    try {
      item = await uploadAndWait(sage, cookie, { filename: "scanned-report.pdf", bytes, type: "application/pdf", timeoutMs: pages * 60_000 });
    } finally {
      ingesting = false;
      clearInterval(memoryWatch);
      await probe;
    }
    const jobMs = jobDurationMs(sage.dataDir, { kind: "knowledge.ingest" });
    const memory = memoryOf(sage.pid);
    return {
      pages,
      pdfMb: round(bytes.length / 1_048_576),
      status: item.status,
      chunks: item.chunkCount,
      jobSeconds: round(jobMs / 1000),
      secondsPerPage: round(jobMs / 1000 / pages, 2),
      peakRssMb: round(memory.peakMb, 0),
      idleRssMb: round(idle.rssMb, 0),
      // Sampled every 250 ms: the OCR process (rendering and tesseract) runs beside the server.
      ocrProcessPeakRssMb: round(peaks.ocrProcessMb, 0),
      serverPlusOcrPeakRssMb: round(peaks.togetherMb, 0),
      health: { requests: latencies.length, p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)), maxMs: round(Math.max(...latencies)) },
      healthBeforeUpload: { requests: idleLatencies.length, p50Ms: round(percentile(idleLatencies, 50)), p99Ms: round(percentile(idleLatencies, 99)) },
      targets: { peakRssMb: "< 400", healthP99Ms: "< 50" },
    };
  } finally {
    await sage.stop();
  }
}
