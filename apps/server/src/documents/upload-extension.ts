import { SUPPORTED_UPLOAD_EXTENSIONS } from "@sage/contracts/knowledge";

export type UploadExtension = (typeof SUPPORTED_UPLOAD_EXTENSIONS)[number];

/** The lower-cased extension when it is one we convert, else null (the check is case-insensitive). */
export function supportedExtension(filename: string): UploadExtension | null {
  const match = /\.([^.]+)$/.exec(filename.trim());
  const extension = match?.[1]?.toLowerCase();
  return (SUPPORTED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension ?? "") ? (extension as UploadExtension) : null;
}
