import yauzl from "yauzl";
import { ConversionError } from "./extracted-document.ts";

export const tooLargeToProcess = (detail: string) => new ConversionError(`The document is too large to process: ${detail}`);
const megabytes = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

/**
 * Sums what a zip's entries declare they expand to (its central directory only; nothing is inflated) and refuses
 * the archive past `maxBytes`. A zip that lies about its sizes is still stopped by the conversion process's
 * memory limit; this catches the honest bomb at once, with a clear reason.
 */
export async function checkZipExpansion(bytes: Buffer, maxBytes: number): Promise<void> {
  const total = await new Promise<number>((resolve) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: false }, (error, zip) => {
      // Not a readable zip: the converter reports that in its own words.
      if (error || !zip) return resolve(0);
      let sum = 0;
      zip.on("entry", (entry: yauzl.Entry) => {
        sum += entry.uncompressedSize;
        if (sum > maxBytes) {
          zip.close();
          return resolve(sum);
        }
        zip.readEntry();
      });
      zip.on("end", () => resolve(sum));
      zip.on("error", () => resolve(sum));
      zip.readEntry();
    });
  });
  if (total > maxBytes) throw tooLargeToProcess(`it expands to more than ${megabytes(maxBytes)}`);
}
