import type { ExtractedDocument } from "../extracted-document.ts";
import { DEFAULT_MAIL_LIMITS, readMailMessage, type MailLimits } from "./mail-message.ts";

/**
 * One e-mail: its headers and body as one section, its source the day it was sent (knowledge puts the folder before
 * it); attachments of supported types are returned for child items.
 */
export async function convertEml(bytes: Buffer, limits: MailLimits = DEFAULT_MAIL_LIMITS): Promise<ExtractedDocument> {
  const message = await readMailMessage(bytes, limits);
  const document: ExtractedDocument = { sections: message.text ? [{ source: message.day, text: message.text }] : [] };
  if (message.attachments.length > 0) document.attachments = message.attachments;
  if (message.notRead) document.attachmentsNotRead = message.notRead;
  if (document.sections.length === 0) document.notProcessedReason = "The e-mail contains no text";
  return document;
}
