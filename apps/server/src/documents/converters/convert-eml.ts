import type { ExtractedDocument } from "../extracted-document.ts";
import { readMailMessage } from "./mail-message.ts";

/**
 * One e-mail: its headers and body as one section, its source the day it was sent (knowledge puts the folder before
 * it); attachments of supported types are returned for child items.
 */
export async function convertEml(bytes: Buffer): Promise<ExtractedDocument> {
  const message = await readMailMessage(bytes);
  const document: ExtractedDocument = { sections: message.text ? [{ source: message.day, text: message.text }] : [] };
  if (message.attachments.length > 0) document.attachments = message.attachments;
  if (document.sections.length === 0) document.notProcessedReason = "The e-mail contains no text";
  return document;
}
