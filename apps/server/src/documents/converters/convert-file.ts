import { convertDoc } from "./convert-doc.ts";
import { convertDocx } from "./convert-docx.ts";
import { convertEml } from "./convert-eml.ts";
import { convertHtmlFile } from "./convert-html.ts";
import { convertIcs } from "./convert-ics.ts";
import { convertImage } from "./convert-image.ts";
import { convertMbox } from "./convert-mbox.ts";
import { convertOdt } from "./convert-odt.ts";
import { convertPdf } from "./convert-pdf.ts";
import { convertRtf } from "./convert-rtf.ts";
import { convertSlides } from "./convert-slides.ts";
import { convertSpreadsheet } from "./convert-spreadsheet.ts";
import { convertTxt } from "./convert-txt.ts";
import { DEFAULT_MAIL_LIMITS, type MailLimits } from "./mail-message.ts";
import { isPasswordProtectedOffice } from "./encrypted-office.ts";
import { passwordProtected } from "./reader-failure.ts";
import { ConversionError, type ExtractedDocument } from "../extracted-document.ts";
import type { UploadExtension } from "../upload-extension.ts";

export { supportedExtension, type UploadExtension } from "../upload-extension.ts";

const OFFICE_KIND: Partial<Record<UploadExtension, string>> = {
  doc: "The document",
  docx: "The document",
  odt: "The document",
  pptx: "The presentation",
  odp: "The presentation",
  xlsx: "The spreadsheet",
  xls: "The spreadsheet",
  ods: "The spreadsheet",
};

export async function convertFile(extension: UploadExtension, bytes: Buffer, mail: MailLimits = DEFAULT_MAIL_LIMITS): Promise<ExtractedDocument> {
  const officeKind = OFFICE_KIND[extension];
  // Told before a reader sees it: each would fail in its own words ("invalid zip data", "outside buffer bounds").
  if (officeKind && isPasswordProtectedOffice(bytes)) throw passwordProtected(officeKind);
  switch (extension) {
    case "pdf":
      return convertPdf(bytes);
    case "docx":
      return convertDocx(bytes);
    case "doc":
      // Some .doc files are really DOCX (zip) or RTF saved with the old name.
      if (bytes[0] === 0x50 && bytes[1] === 0x4b) return convertDocx(bytes);
      if (bytes.subarray(0, 5).toString("latin1") === "{\\rtf") return convertRtf(bytes);
      return convertDoc(bytes);
    case "odt":
      return convertOdt(bytes);
    case "rtf":
      return convertRtf(bytes);
    case "txt":
    case "md":
      // Markdown is already the form the chunker reads: '#' headings become sections.
      return convertTxt(bytes);
    case "html":
    case "htm":
      return convertHtmlFile(bytes);
    case "pptx":
    case "odp":
      return convertSlides(bytes, extension);
    case "xlsx":
    case "xls":
    case "ods":
    case "csv":
      return convertSpreadsheet(bytes, extension);
    case "eml":
      return convertEml(bytes, mail);
    case "mbox":
      return convertMbox(bytes, mail);
    case "ics":
      return convertIcs(bytes);
    case "png":
    case "jpg":
    case "jpeg":
    case "tif":
    case "tiff":
    case "webp":
      return convertImage(bytes);
    default:
      throw new ConversionError(`Unsupported file type: ${String(extension satisfies never)}`);
  }
}
