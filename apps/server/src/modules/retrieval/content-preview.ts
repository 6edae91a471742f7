/** File types whose extracted text is never shown as a preview: binary formats, where the text is a lossy extraction. */
const BINARY_EXTENSIONS = new Set(["docx", "xlsx", "pdf", "pptx", "zip", "doc", "xls", "ods", "odp", "odt", "png", "jpg", "jpeg", "tif", "tiff", "webp"]);
export const PREVIEW_LENGTH = 200;

export function isBinaryFileName(name: string): boolean {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return extension !== undefined && BINARY_EXTENSIONS.has(extension);
}

/**
 * The preview shown under a recommendation: control characters removed; nothing for binary types or for
 * text that is mostly garbage (over 30% removed, under 10 characters left, or replacement characters).
 */
export function contentPreview(fileName: string, text: string): string {
  if (isBinaryFileName(fileName)) return "";
  if (text.includes("\uFFFD")) return "";
  // Keep tabs and newlines as spaces; drop C0/C1 controls and other invisible format characters.
  const cleaned = text.replace(/[\t\n\r]+/g, " ").replace(/[\p{Cc}\p{Cf}]/gu, "");
  const original = text.replace(/[\t\n\r]+/g, " ");
  if (original.length > 0 && (original.length - cleaned.length) / original.length > 0.3) return "";
  const trimmed = cleaned.replace(/\s+/g, " ").trim();
  if (trimmed.length < 10) return "";
  return trimmed.length > PREVIEW_LENGTH ? `${trimmed.slice(0, PREVIEW_LENGTH).trimEnd()}…` : trimmed;
}
