import type { DocumentFormat } from "@sage/contracts/documents-out";
import type { DocumentModel } from "./markdown-document.ts";
import { writeDocx } from "./write-docx.ts";
import { writePdf } from "./write-pdf.ts";
import { writePptx } from "./write-pptx.ts";
import { writeXlsx } from "./write-xlsx.ts";

export const DOCUMENT_MIME_TYPES: Record<DocumentFormat, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdf: "application/pdf",
};

const WRITERS: Record<DocumentFormat, (model: DocumentModel) => Promise<Buffer>> = { docx: writeDocx, pptx: writePptx, xlsx: writeXlsx, pdf: writePdf };

/** The file of a document in one of the formats SAGE writes. */
export function writeDocument(format: DocumentFormat, model: DocumentModel): Promise<Buffer> {
  return WRITERS[format](model);
}

/** A file name from a title: what a file system accepts, at most 120 characters, with the format's extension. */
export function documentFileName(title: string, extension: string): string {
  const base = [...title]
    .map((char) => (char < " " ? " " : char))
    .join("")
    .replace(/[\\/:*?"<>|]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 120)
    .trim();
  return `${base || "Document"}.${extension}`;
}
