import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { convertFile } from "../../apps/server/src/documents/converters/convert-file.ts";

export interface FixtureOutcome {
  name: string;
  check: string;
  passed: boolean;
  detail?: string;
  /** Pages SAGE read by OCR (a text layer missing or made of glyph codes). */
  ocrPages?: number[];
}

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();
/** Our output is markdown: list, heading and table markers are removed before comparing with plain upstream text. */
const visibleText = (markdown: string) =>
  markdown
    .split("\n")
    .map((line) =>
      line
        .replace(/^\s*#{1,6}\s+/, "")
        .replace(/^\s*(?:-|\d+\.)\s+/, "")
        .replace(/^\|\s?|\s?\|$/g, "")
        .replace(/\s\|\s/g, " "),
    )
    .join("\n");

async function extract(file: string): Promise<{ text: string; ocrPages?: number[] }> {
  const extension = file.toLowerCase().endsWith(".pdf") ? "pdf" : "docx";
  const document = await convertFile(extension, readFileSync(file));
  return { text: normalise(visibleText(document.sections.map((section) => section.text).join("\n\n"))), ocrPages: document.ocrPages };
}

/** pdfminer PDFs and mammoth DOCX files with their upstream expected texts (../shared/eval/docextract-fixtures). */
export async function sharedFixtureOutcomes(fixturesDir: string): Promise<FixtureOutcome[]> {
  const outcomes: FixtureOutcome[] = [];
  const pdfDir = path.join(fixturesDir, "pdfminer");
  if (existsSync(path.join(pdfDir, "expected_text.json"))) {
    const expectations = JSON.parse(readFileSync(path.join(pdfDir, "expected_text.json"), "utf8")) as Record<
      string,
      { file: string; expected_pdfminer_extract_text: string; check: string }
    >;
    for (const [name, expectation] of Object.entries(expectations)) {
      try {
        const { text, ocrPages } = await extract(path.join(pdfDir, expectation.file));
        const expected = normalise(expectation.expected_pdfminer_extract_text.replace(/\f/g, " "));
        // Line numbers depend on pdfminer's layout analysis, so a 'line N' check becomes 'contains the line'.
        const passed = expectation.check.includes("prefix")
          ? text.startsWith(expected)
          : expectation.check.includes("line")
            ? text.includes(expected)
            : text === expected;
        outcomes.push({
          name: `pdfminer/${name}`,
          check: expectation.check,
          passed,
          ...(passed ? {} : { detail: `got: ${text.slice(0, 120)}` }),
          ...(ocrPages ? { ocrPages } : {}),
        });
      } catch (error) {
        outcomes.push({ name: `pdfminer/${name}`, check: expectation.check, passed: false, detail: (error as Error).message });
      }
    }
  }
  const docxDir = path.join(fixturesDir, "mammoth-docx");
  if (existsSync(path.join(docxDir, "expected_text.json"))) {
    const expectations = JSON.parse(readFileSync(path.join(docxDir, "expected_text.json"), "utf8")) as Record<
      string,
      { text?: string; text_contains?: string[] }
    >;
    for (const [name, expectation] of Object.entries(expectations)) {
      const label = `mammoth-docx/${name}`;
      try {
        const { text } = await extract(path.join(docxDir, "test-data", name));
        if (expectation.text_contains) {
          const missing = expectation.text_contains.filter((part) => !text.includes(normalise(part)));
          outcomes.push({
            name: label,
            check: "contains",
            passed: missing.length === 0,
            ...(missing.length ? { detail: `missing: ${missing.join(" | ")}` } : {}),
          });
        } else if (expectation.text !== undefined) {
          const passed = text === normalise(expectation.text);
          outcomes.push({ name: label, check: "text", passed, ...(passed ? {} : { detail: `got: ${text.slice(0, 120)}` }) });
        }
      } catch (error) {
        outcomes.push({ name: label, check: expectation.text_contains ? "contains" : "text", passed: false, detail: (error as Error).message });
      }
    }
  }
  return outcomes;
}
