import type { ConvertedDocument } from "../../documents/documents.ts";

// What an item says once read with something missing: shared by the reading of one item and of a batch.
export const VECTOR_WARNING = "Saved, but it might not appear in search results: semantic indexing failed";
export const pagesNotReadWarning = ({ read, total }: { read: number; total: number }) =>
  `Saved, but only its first ${read.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} pages were read (the limit for one document): the rest is not searchable`;
export const ocrFailedWarning = (pages: number[]) =>
  `Saved, but text recognition gave up on ${pages.length === 1 ? "page" : "pages"} ${pages.join(", ")}: their text is missing`;
/** Pages whose OCR was too unsure to keep (decision 034): said in plain words, the text is left out rather than stored as garbage. */
export const ocrUnclearWarning = (pages: number[]) =>
  `Saved, but ${pages.length === 1 ? "page" : "pages"} ${pages.join(", ")} could not be read reliably (a blurred or faint scan, or a language text recognition does not read): ${pages.length === 1 ? "its" : "their"} text is left out`;

/** "67 MB", or "300 KB" below a megabyte. */
const size = (bytes: number) =>
  bytes < 1_048_576 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${Math.round(bytes / 1_048_576).toLocaleString("en-US")} MB`;
/** A mail's attachments left out (issue 52 item 6): how many and why, and which were too large, by name. */
export function attachmentsNotReadWarning(notRead: NonNullable<ConvertedDocument["attachmentsNotRead"]>): string {
  const parts: string[] = [];
  if (notRead.overCount > 0) {
    parts.push(
      `${notRead.overCount.toLocaleString("en-US")} of its ${notRead.total.toLocaleString("en-US")} attachments were not read: SAGE reads at most ${notRead.maxAttachments.toLocaleString("en-US")} attachments of one message (the rest are listed in its text)`,
    );
  }
  if (notRead.tooLarge.length > 0) {
    const names = notRead.tooLarge.slice(0, 3).map((file) => `${file.filename} (${size(file.bytes)})`);
    const more = notRead.tooLarge.length > 3 ? ` and ${notRead.tooLarge.length - 3} more` : "";
    parts.push(
      `${names.join(", ")}${more} ${notRead.tooLarge.length === 1 ? "was" : "were"} not read: larger than the upload limit of ${size(notRead.maxBytes)}`,
    );
  }
  return `Saved, but ${parts.join("; ")}`;
}

/** What the item records of text recognition (decision 016). */
export const ocrFields = (document: Pick<ConvertedDocument, "ocrPages" | "ocrFailedPages">) => ({
  ocrPages: JSON.stringify(document.ocrPages ?? []),
  ocrFailedPages: JSON.stringify(document.ocrFailedPages ?? []),
});

/** What a read document's item says beside "ready": the first of its warnings, or null. */
export function readWarning(document: ConvertedDocument, vectorError: unknown): string | null {
  if (vectorError) return VECTOR_WARNING;
  if (document.pagesNotRead) return pagesNotReadWarning(document.pagesNotRead);
  if (document.ocrFailedPages?.length) return ocrFailedWarning(document.ocrFailedPages);
  if (document.ocrUnclearPages?.length) return ocrUnclearWarning(document.ocrUnclearPages);
  if (document.attachmentsNotRead) return attachmentsNotReadWarning(document.attachmentsNotRead);
  return null;
}
