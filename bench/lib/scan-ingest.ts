// An image-only PDF ingested by the built server while /api/health is probed and the memory of the server and
// every process under it (the conversion process, the OCR process it starts) is sampled. Used by the bench's
// `ocr-pdf-300` scenario and by `npm run eval:docextract`'s long scan.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { makeBilevelScanPdf } from "../../apps/server/src/documents/test/test-images.ts";
import { proseLines } from "../docextract/text-pages.ts";
import { pingHealth } from "./health-probe.mjs";
import { jobDurationMs, uploadAndWait } from "./ingest.mjs";
import { cacheDir } from "./search-store.mjs";
import { memoryOf, startSage } from "./server.mjs";

export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? NaN;

/** The lines printed on page `page` (0-based) of the scan: the same for the same page, so a reference text exists. */
export const scanPageLines = (page: number) => proseLines(1000 + page, 48);

/**
 * An image-only PDF as an office scanner makes it: one black-and-white 300 dpi image per A4 page (Flate, about
 * 115 KB a page, so 300 pages stay within the default 50 MB upload limit), no text layer. Built once, cached.
 */
export async function scannedReport(pages: number): Promise<string> {
  const file = path.join(cacheDir("docextract"), `scan-${pages}-bilevel-v2.pdf`);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await makeBilevelScanPdf(Array.from({ length: pages }, (_, page) => scanPageLines(page))));
  return file;
}

/** The processes a process started, from /proc (threads' children included). */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** 0 for a process that has just exited (unreadable, or read without VmRSS: a NaN spoilt a whole run's peak). */
const residentMb = (pid: number) => {
  try {
    const mb = memoryOf(pid).rssMb as number;
    return Number.isFinite(mb) ? mb : 0;
  } catch {
    return 0;
  }
};

/** Proportional set size: shared pages (the node binary, libraries) split between the processes that map them. */
const proportionalMb = (pid: number) => {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

/**
 * Samples every `everyMs` the resident memory of the server, its children (the conversion processes) and their
 * children (the OCR process): the peak of each role and of all of them together at one instant.
 */
function watchMemory(serverPid: number, everyMs: number) {
  const peaks = {
    serverMb: 0,
    conversionMb: 0,
    ocrMb: 0,
    togetherMb: 0,
    togetherPssMb: 0,
    samples: 0,
    processesSeen: new Set<number>(),
    timeline: [] as number[][],
  };
  const startedAt = performance.now();
  const sample = () => {
    const server = residentMb(serverPid);
    let conversion = 0;
    let ocr = 0;
    let pss = proportionalMb(serverPid);
    for (const child of childPids(serverPid)) {
      peaks.processesSeen.add(child);
      conversion += residentMb(child);
      pss += proportionalMb(child);
      for (const grandchild of childPids(child)) {
        peaks.processesSeen.add(grandchild);
        ocr += residentMb(grandchild);
        pss += proportionalMb(grandchild);
      }
    }
    peaks.togetherPssMb = Math.max(peaks.togetherPssMb, pss);
    peaks.serverMb = Math.max(peaks.serverMb, server);
    peaks.conversionMb = Math.max(peaks.conversionMb, conversion);
    peaks.ocrMb = Math.max(peaks.ocrMb, ocr);
    peaks.togetherMb = Math.max(peaks.togetherMb, server + conversion + ocr);
    peaks.samples++;
    // One point a second: [seconds, server, conversion, OCR] in MB, to see what grows with pages.
    if (peaks.samples % Math.round(1000 / everyMs) === 1)
      peaks.timeline.push([Math.round((performance.now() - startedAt) / 1000), Math.round(server), Math.round(conversion), Math.round(ocr)]);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

export interface ScanIngestResult {
  pages: number;
  pdfBytes: number;
  status: string;
  chunks: number;
  ocrPages: number;
  ocrFailedPages: number;
  jobMs: number;
  idleRssMb: number;
  /** The server's own high-water mark (VmHWM), exact. */
  serverHwmMb: number;
  /** Sampled every `sampleMs`: the server, its conversion processes, their OCR processes, and all at one instant. */
  sampled: {
    serverMb: number;
    conversionMb: number;
    ocrMb: number;
    togetherMb: number;
    togetherPssMb: number;
    samples: number;
    processes: number;
    sampleMs: number;
    timeline: number[][];
  };
  health: number[];
  healthIdle: number[];
  loadAverage: { before: number[]; after: number[] };
}

/**
 * The built server (no embedder, so the job is extraction, OCR, chunking and indexing) ingests an image-only PDF
 * of `pages` pages through POST /api/upload while /api/health is asked every `probeEveryMs`; the same probe runs
 * for `idleProbeMs` before the upload, the limit beside it.
 */
export async function ingestScan({
  pages,
  probeEveryMs = 25,
  idleProbeMs = 10_000,
  sampleMs = 100,
}: {
  pages: number;
  probeEveryMs?: number;
  idleProbeMs?: number;
  sampleMs?: number;
}): Promise<ScanIngestResult> {
  const { loadavg } = await import("node:os");
  const file = await scannedReport(pages);
  const bytes = readFileSync(file);
  const sage = await startSage({ label: "scan", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" } });
  try {
    const cookie = await sage.login();
    const idleRssMb = memoryOf(sage.pid).rssMb as number;
    const idleUntil = performance.now() + idleProbeMs;
    const healthIdle = await pingHealth(sage.url, () => performance.now() > idleUntil, probeEveryMs);
    const loadBefore = loadavg();
    const memory = watchMemory(sage.pid, sampleMs);
    let ingesting = true;
    const probe = pingHealth(sage.url, () => !ingesting, probeEveryMs);
    let item: { chunkCount: number; status: string; ocrPages?: number[]; ocrFailedPages?: number[] };
    try {
      item = await uploadAndWait(sage, cookie, { filename: "scanned-report.pdf", bytes, type: "application/pdf", timeoutMs: pages * 120_000 });
    } finally {
      ingesting = false;
    }
    const health = await probe;
    const peaks = memory.stop();
    return {
      pages,
      pdfBytes: bytes.length,
      status: item.status,
      chunks: item.chunkCount,
      ocrPages: item.ocrPages?.length ?? 0,
      ocrFailedPages: item.ocrFailedPages?.length ?? 0,
      jobMs: jobDurationMs(sage.dataDir, { kind: "knowledge.ingest" }),
      idleRssMb,
      serverHwmMb: memoryOf(sage.pid).peakMb as number,
      sampled: {
        serverMb: peaks.serverMb,
        conversionMb: peaks.conversionMb,
        ocrMb: peaks.ocrMb,
        togetherMb: peaks.togetherMb,
        togetherPssMb: peaks.togetherPssMb,
        samples: peaks.samples,
        processes: peaks.processesSeen.size,
        sampleMs,
        timeline: peaks.timeline,
      },
      health,
      healthIdle,
      loadAverage: { before: loadBefore, after: loadavg() },
    };
  } finally {
    await sage.stop();
  }
}
