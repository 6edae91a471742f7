/**
 * `npm run eval:docextract`: SAGE's converters measured, printed as JSON.
 * - sharedFixtures: pdfminer PDFs and mammoth DOCX files with their upstream expected texts, from
 *   ../shared/eval/docextract-fixtures (or ../../shared from a worktree; SAGE_DOCEXTRACT_DIR overrides), skipped
 *   with a message when absent.
 * - types: each new type written here (deck, workbook, mail, calendar, image of known text, scanned PDF), read
 *   back, with its phrases and sources checked.
 * - ocr: character error rate on clean 300 dpi A4 renders, and pages/s through SAGE against tesseract.js alone.
 * - longScan: an image-only PDF (SAGE_DOCEXTRACT_SCAN_PAGES pages, default 40; the case is 300) ingested by
 *   the built server: seconds per page, peak RSS, /api/health latency meanwhile. SAGE_DOCEXTRACT_SCAN_PAGES=0 skips it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { longScanFigures } from "./docextract/long-scan.ts";
import { ocrFigures } from "./docextract/ocr-figures.ts";
import { sharedFixtureOutcomes } from "./docextract/shared-fixtures.ts";
import { typeChecks } from "./docextract/type-checks.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const candidates = process.env.SAGE_DOCEXTRACT_DIR
  ? [process.env.SAGE_DOCEXTRACT_DIR]
  : [path.resolve(repoRoot, "../shared/eval/docextract-fixtures"), path.resolve(repoRoot, "../../shared/eval/docextract-fixtures")];
const scanPages = Number(process.env.SAGE_DOCEXTRACT_SCAN_PAGES ?? 40);
const ocrPages = Number(process.env.SAGE_DOCEXTRACT_OCR_PAGES ?? 5);

async function main() {
  const fixturesDir = candidates.find((candidate) => existsSync(candidate));
  let sharedFixtures: object;
  if (fixturesDir) {
    const outcomes = await sharedFixtureOutcomes(fixturesDir);
    sharedFixtures = {
      fixtures: fixturesDir,
      reproduced: outcomes.filter((outcome) => outcome.passed).length,
      total: outcomes.length,
      readByOcr: outcomes.filter((outcome) => outcome.ocrPages).map((outcome) => ({ name: outcome.name, pages: outcome.ocrPages })),
      failures: outcomes.filter((outcome) => !outcome.passed),
    };
  } else {
    console.error(`eval:docextract: shared fixtures skipped, none of ${candidates.join(", ")} exists (set SAGE_DOCEXTRACT_DIR).`);
    sharedFixtures = { skipped: `no fixtures folder (${candidates.join(", ")})` };
  }
  const types = await typeChecks();
  const ocr = await ocrFigures(ocrPages);
  const longScan = scanPages > 0 ? await longScanFigures(scanPages) : { skipped: "SAGE_DOCEXTRACT_SCAN_PAGES=0" };
  console.log(
    JSON.stringify(
      { sharedFixtures, types: { passed: types.filter((type) => type.passed).length, total: types.length, results: types }, ocr, longScan },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
