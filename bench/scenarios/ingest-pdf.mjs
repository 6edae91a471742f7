import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { passage } from "../lib/corpus.mjs";
import { figure, round } from "../lib/figure.mjs";
import { jobDurationMs, uploadAndWait } from "../lib/ingest.mjs";
import { cacheDir } from "../lib/search-store.mjs";
import { rng } from "../lib/seed-chunks.mjs";
import { memoryOf, ROOT, startSage } from "../lib/server.mjs";

const PAGES = 300;
const requireFromServer = createRequire(path.join(ROOT, "apps/server/package.json"));
const EXTRACT = fileURLToPath(new URL("../lib/pdfjs-extract.mjs", import.meta.url));

/** A 300-page A4 PDF of report-like text (45 lines of ~85 characters a page), built once with pdf-lib and cached. */
export async function reportPdf() {
  const file = path.join(cacheDir("pdf"), `report-${PAGES}-v1.pdf`);
  if (existsSync(file)) return file;
  const { PDFDocument, StandardFonts } = requireFromServer("pdf-lib");
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const random = rng(300);
  for (let p = 0; p < PAGES; p++) {
    const page = pdf.addPage([595, 842]);
    const words = passage(random, p % 300, 3800)
      .replace(/\n+/g, " ")
      .split(" ");
    let y = 790;
    let line = "";
    for (const word of words) {
      if (line.length + word.length + 1 > 85) {
        page.drawText(line, { x: 50, y, size: 10, font });
        y -= 16;
        line = "";
        if (y < 60) break;
      }
      line += (line ? " " : "") + word;
    }
    page.drawText(`Page ${p + 1}`, { x: 280, y: 30, size: 9, font });
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await pdf.save());
  return file;
}

/** A 300-page PDF uploaded with no embedder (lexical index only): pages/s from job start to done, and peak RSS. */
export async function ingestPdf() {
  const file = await reportPdf();
  const bytes = readFileSync(file);
  // The limit runs before and after the upload and their mean is kept, so a load swing mid-run hits both sides.
  const extract = async () => JSON.parse((await promisify(execFile)(process.execPath, [EXTRACT, file])).stdout);
  const before = await extract();
  const sage = await startSage({ label: "pdf", env: { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" } });
  try {
    const cookie = await sage.login();
    const idle = memoryOf(sage.pid);
    const startedAt = performance.now();
    const item = await uploadAndWait(sage, cookie, { filename: "annual-report.pdf", bytes, type: "application/pdf" });
    const wallMs = performance.now() - startedAt;
    const jobMs = jobDurationMs(sage.dataDir, { itemId: item.id });
    const memory = memoryOf(sage.pid);
    const after = await extract();
    const limit = { pages: before.pages, ms: (before.ms + after.ms) / 2 };
    const params = {
      pages: PAGES,
      bytes: bytes.length,
      chunks: item.chunkCount,
      jobMs,
      uploadToReadyMs: round(wallMs, 0),
      limitMs: round(limit.ms, 0),
      limitRunsMs: [round(before.ms, 0), round(after.ms, 0)],
      idleRssMb: round(idle.rssMb, 0),
    };
    return [
      figure({
        name: "ingest.pdf_pages_per_s",
        value: PAGES / (jobMs / 1000),
        unit: "pages/s",
        limit: limit.pages / (limit.ms / 1000),
        better: "higher",
        target: ">= 0.7 of limit",
        params,
      }),
      figure({
        name: "ingest.pdf_peak_rss",
        value: memory.peakMb,
        unit: "MB",
        better: "lower",
        target: "<= 300 MB",
        params: { pages: PAGES, rssAfterMb: round(memory.rssMb, 0) },
      }),
    ];
  } finally {
    await sage.stop();
  }
}
