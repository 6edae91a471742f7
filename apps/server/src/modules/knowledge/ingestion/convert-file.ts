import { SUPPORTED_UPLOAD_EXTENSIONS } from "@sage/contracts/knowledge";
import { convertDoc } from "./convert-doc.ts";
import { convertDocx } from "./convert-docx.ts";
import { convertPdf } from "./convert-pdf.ts";
import { convertTxt } from "./convert-txt.ts";
import { ConversionError, type ExtractedDocument } from "./extracted-document.ts";

export type UploadExtension = (typeof SUPPORTED_UPLOAD_EXTENSIONS)[number];

/** The lower-cased extension when it is one we convert, else null (the check is case-insensitive). */
export function supportedExtension(filename: string): UploadExtension | null {
  const match = /\.([^.]+)$/.exec(filename.trim());
  const extension = match?.[1]?.toLowerCase();
  return (SUPPORTED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension ?? "") ? (extension as UploadExtension) : null;
}

export async function convertFile(extension: UploadExtension, bytes: Buffer): Promise<ExtractedDocument> {
  switch (extension) {
    case "pdf":
      return convertPdf(bytes);
    case "docx":
      return convertDocx(bytes);
    case "doc":
      // Some .doc files are really DOCX (zip) or RTF saved with the old name.
      if (bytes[0] === 0x50 && bytes[1] === 0x4b) return convertDocx(bytes);
      return convertDoc(bytes);
    case "txt":
      return convertTxt(bytes);
    default:
      throw new ConversionError(`Unsupported file type: ${String(extension)}`);
  }
}
