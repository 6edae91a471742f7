import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { renderA4Page } from "../../apps/server/src/modules/knowledge/ingestion/test-images.ts";
import { jobDurationMs, uploadAndWait } from "../lib/ingest.mjs";
import { cacheDir } from "../lib/search-store.mjs";
import { memoryOf, ROOT, startSage } from "../lib/server.mjs";
import { proseLines } from "./text-pages.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? NaN;

/** An image-only PDF as a scanner makes it: one 300 dpi greyscale JPEG per A4 page, no text layer. Built once, cached. */
async function scannedReport(pages: number): Promise<string> {
  const file = path.join(cacheDir("docextract"), `scan-${pages}-v1.pdf`);
  if (existsSync(file)) return file;
  const pdf = await PDFDocument.create();
  for (let page = 0; page < pages; page++) {
    const jpeg = await sharp(renderA4Page(proseLines(1000 + page, 48), 300)).greyscale().jpeg({ quality: 70 }).toBuffer();
    pdf.addPage([595, 842]).drawImage(await pdf.embedJpg(jpeg), { x: 0, y: 0, width: 595, height: 842 });
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await pdf.save());
  return file;
}

/**
 * The long-scan case end to end: the built server ingests an image-only PDF of `pages` pages through
 * POST /api/upload while /api/health is called every 25 ms. Peak RSS is the server process's high-water mark.
 */
export async function longScanFigures(pages: number) {
  execFileSync(process.execPath, ["build.mjs"], { cwd: path.join(ROOT, "apps/server"), stdio: "ignore" });
  const file = await scannedReport(pages);
  const bytes = readFileSync(file);
  const sage = await startSage({ label: "scan", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "", SAGE_MAX_UPLOAD_BYTES: String(1024 * 1_048_576) } });
  try {
    const cookie = await sage.login();
    const idle = memoryOf(sage.pid);
    const latencies: number[] = [];
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
      health: { requests: latencies.length, p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)), maxMs: round(Math.max(...latencies)) },
      targets: { peakRssMb: "< 400", healthP99Ms: "< 50" },
    };
  } finally {
    await sage.stop();
  }
}
