import { Readable } from "node:stream";
import { type ExtractedAttachment, type ExtractedDocument, type ExtractedSection } from "../extracted-document.ts";
import { readMailMessage } from "./mail-message.ts";
import { readerFailure } from "./reader-failure.ts";

const SUBJECT_IN_SOURCE = 80;

/**
 * A mailbox is one item whose sections are its messages (source "message N: subject"): a search hit cites the
 * message it came from, chunks never mix two messages, and a mailbox of thousands does not flood the folder.
 */
export async function convertMbox(bytes: Buffer): Promise<ExtractedDocument> {
  const { mboxReader } = await import("mbox-reader");
  const sections: ExtractedSection[] = [];
  const attachments: ExtractedAttachment[] = [];
  let number = 0;
  try {
    for await (const entry of mboxReader(Readable.from([bytes]))) {
      number++;
      const message = await readMailMessage(entry.content);
      const subject = message.subject.length > SUBJECT_IN_SOURCE ? `${message.subject.slice(0, SUBJECT_IN_SOURCE - 3)}...` : message.subject;
      const source = subject ? `message ${number}: ${subject}` : `message ${number}`;
      if (message.text) sections.push({ source, text: message.text });
      attachments.push(...message.attachments.map((attachment) => ({ ...attachment, source })));
    }
  } catch (error) {
    throw readerFailure("The mailbox", error);
  }
  const document: ExtractedDocument = { sections };
  if (attachments.length > 0) document.attachments = attachments;
  if (sections.length === 0) document.notProcessedReason = "The mailbox contains no messages";
  return document;
}
