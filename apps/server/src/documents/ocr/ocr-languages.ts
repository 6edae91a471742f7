import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** One language's recogniser data: its Tesseract code (eng, fra, heb) and the file that holds it. */
export interface OcrLanguageFile {
  code: string;
  file: string;
}

/** Languages whose data ships as npm packages this server depends on (decision 034). */
export const PACKAGED_OCR_LANGUAGES = ["eng", "fra"];
export const OCR_LANGUAGE_CODE = /^[a-z]{3}(?:_[a-z]+)*$/;

const require = createRequire(import.meta.url);

/** Integer "best" LSTM data in a @tesseract.js-data package (tesseract.js's own default), or null when not installed. */
function packagedFile(code: string): string | null {
  try {
    const file = path.join(path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), "4.0.0_best_int", `${code}.traineddata.gz`);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/**
 * The data file of each language: `<code>.traineddata` (or `.gz`) in the folder when one is given and has it, else
 * the installed @tesseract.js-data package. Nothing is ever downloaded; a language with no data is an error.
 */
export function resolveOcrLanguages(codes: string[], dataDir?: string): OcrLanguageFile[] {
  return codes.map((code) => {
    if (!OCR_LANGUAGE_CODE.test(code)) throw new Error(`"${code}" is not a Tesseract language code (such as eng, fra, heb, chi_sim)`);
    const inFolder = dataDir
      ? [`${code}.traineddata`, `${code}.traineddata.gz`].map((name) => path.join(dataDir, name)).find((file) => existsSync(file))
      : undefined;
    const file = inFolder ?? packagedFile(code);
    if (!file) {
      const where = dataDir ? `${code}.traineddata is not in ${dataDir}, and ` : "";
      throw new Error(`no text recognition data for "${code}": ${where}@tesseract.js-data/${code} is not installed`);
    }
    return { code, file };
  });
}

/** Orientation and script detection data (legacy engine), from @tesseract.js-data/osd. */
export function osdFile(): string {
  const file = packagedFile("osd");
  if (!file) throw new Error("@tesseract.js-data/osd is not installed");
  return file;
}
