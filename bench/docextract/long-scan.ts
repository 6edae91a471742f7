import { execFileSync } from "node:child_process";
import path from "node:path";
import { ingestScan, percentile } from "../lib/scan-ingest.ts";
import { ROOT } from "../lib/server.mjs";

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The long-scan case end to end: the built server ingests an image-only PDF of `pages` pages through
 * POST /api/upload while /api/health is called every 25 ms. Peak RSS: the server's high-water mark, and the
 * server with the processes it starts (conversion, OCR) sampled together.
 */
export async function longScanFigures(pages: number) {
  execFileSync(process.execPath, ["build.mjs"], { cwd: path.join(ROOT, "apps/server"), stdio: "ignore" });
  const run = await ingestScan({ pages });
  return {
    pages,
    pdfMb: round(run.pdfBytes / 1_048_576),
    status: run.status,
    chunks: run.chunks,
    jobSeconds: round(run.jobMs / 1000),
    secondsPerPage: round(run.jobMs / 1000 / pages, 2),
    peakRssMb: round(run.serverHwmMb, 0),
    idleRssMb: round(run.idleRssMb, 0),
    conversionProcessPeakRssMb: round(run.sampled.conversionMb, 0),
    ocrProcessPeakRssMb: round(run.sampled.ocrMb, 0),
    serverPlusProcessesPeakRssMb: round(run.sampled.togetherMb, 0),
    serverPlusProcessesPeakPssMb: round(run.sampled.togetherPssMb, 0),
    health: {
      requests: run.health.length,
      p50Ms: round(percentile(run.health, 50)),
      p99Ms: round(percentile(run.health, 99)),
      maxMs: round(Math.max(...run.health)),
    },
    healthBeforeUpload: { requests: run.healthIdle.length, p50Ms: round(percentile(run.healthIdle, 50)), p99Ms: round(percentile(run.healthIdle, 99)) },
    targets: { serverPlusProcessesPeakPssMb: "< 400", healthP99Ms: "< 50" },
  };
}
