/**
 * `npm run eval:docextract`: runs SAGE's own converters over ../shared/eval/docextract-fixtures (pdfminer PDFs and
 * mammoth DOCX files with their upstream expected texts) and reports, as JSON, how many expected texts we reproduce
 * after whitespace normalisation. Our output is markdown, so its list/heading/table markers are removed first.
 * SAGE_DOCEXTRACT_DIR overrides the folder.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { convertFile } from "../apps/server/src/modules/knowledge/ingestion/convert-file.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const fixturesDir = process.env.SAGE_DOCEXTRACT_DIR ?? path.resolve(repoRoot, "../shared/eval/docextract-fixtures");

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();
const visibleText = (markdown: string) =>
  markdown
    .split("\n")
    .map((line) => line.replace(/^\s*#{1,6}\s+/, "").replace(/^\s*(?:-|\d+\.)\s+/, "").replace(/^\|\s?|\s?\|$/g, "").replace(/\s\|\s/g, " "))
    .join("\n");

async function extract(file: string): Promise<string> {
  const extension = file.toLowerCase().endsWith(".pdf") ? "pdf" : "docx";
  const document = await convertFile(extension, readFileSync(file));
  return visibleText(document.sections.map((section) => section.text).join("\n\n"));
}

interface Outcome {
  name: string;
  check: string;
  passed: boolean;
  detail?: string;
}

async function main() {
  if (!existsSync(fixturesDir)) {
    console.log(`eval:docextract skipped: ${fixturesDir} does not exist (set SAGE_DOCEXTRACT_DIR to the fixtures folder).`);
    return;
  }
  const outcomes: Outcome[] = [];

  const pdfDir = path.join(fixturesDir, "pdfminer");
  if (existsSync(path.join(pdfDir, "expected_text.json"))) {
    const expectations = JSON.parse(readFileSync(path.join(pdfDir, "expected_text.json"), "utf8")) as Record<
      string,
      { file: string; expected_pdfminer_extract_text: string; check: string }
    >;
    for (const [name, expectation] of Object.entries(expectations)) {
      let actual: string;
      try {
        actual = normalise(await extract(path.join(pdfDir, expectation.file)));
      } catch (error) {
        outcomes.push({ name, check: expectation.check, passed: false, detail: (error as Error).message });
        continue;
      }
      const expected = normalise(expectation.expected_pdfminer_extract_text.replace(/\f/g, " "));
      // Line numbers depend on pdfminer's layout analysis, so a 'line N' check becomes 'contains the line'.
      const passed = expectation.check.includes("prefix")
        ? actual.startsWith(expected)
        : expectation.check.includes("line")
          ? actual.includes(expected)
          : actual === expected;
      outcomes.push({ name: `pdfminer/${name}`, check: expectation.check, passed, detail: passed ? undefined : `got: ${actual.slice(0, 120)}` });
    }
  }

  const docxDir = path.join(fixturesDir, "mammoth-docx");
  if (existsSync(path.join(docxDir, "expected_text.json"))) {
    const expectations = JSON.parse(readFileSync(path.join(docxDir, "expected_text.json"), "utf8")) as Record<string, { text?: string; text_contains?: string[] }>;
    for (const [name, expectation] of Object.entries(expectations)) {
      let actual = "";
      try {
        actual = normalise(await extract(path.join(docxDir, "test-data", name)));
      } catch (error) {
        outcomes.push({ name: `mammoth-docx/${name}`, check: "text", passed: false, detail: (error as Error).message });
        continue;
      }
      if (expectation.text_contains) {
        const missing = expectation.text_contains.filter((part) => !actual.includes(normalise(part)));
        outcomes.push({ name: `mammoth-docx/${name}`, check: "contains", passed: missing.length === 0, detail: missing.length ? `missing: ${missing.join(" | ")}` : undefined });
      } else if (expectation.text !== undefined) {
        const passed = actual === normalise(expectation.text);
        outcomes.push({ name: `mammoth-docx/${name}`, check: "text", passed, detail: passed ? undefined : `got: ${actual.slice(0, 120)}` });
      }
    }
  }

  const passed = outcomes.filter((outcome) => outcome.passed).length;
  console.log(
    JSON.stringify(
      { fixtures: fixturesDir, reproduced: passed, total: outcomes.length, failures: outcomes.filter((outcome) => !outcome.passed) },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
