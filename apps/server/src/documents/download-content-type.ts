import { supportedExtension, type UploadExtension } from "./upload-extension.ts";

const CONTENT_TYPES: Record<UploadExtension, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  doc: "application/msword",
  odt: "application/vnd.oasis.opendocument.text",
  rtf: "application/rtf",
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  // Served as plain text: an uploaded page must not run its scripts on SAGE's origin when downloaded.
  html: "text/plain; charset=utf-8",
  htm: "text/plain; charset=utf-8",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odp: "application/vnd.oasis.opendocument.presentation",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  csv: "text/csv; charset=utf-8",
  eml: "message/rfc822",
  mbox: "application/mbox",
  ics: "text/calendar; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  tif: "image/tiff",
  tiff: "image/tiff",
  webp: "image/webp",
};

/** The Content-Type a stored upload is downloaded with; unknown names get application/octet-stream. */
export function downloadContentType(filename: string): string {
  const extension = supportedExtension(filename);
  return extension ? CONTENT_TYPES[extension] : "application/octet-stream";
}
