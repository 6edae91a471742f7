import { Readable } from "node:stream";
import { type AttachmentsNotRead, type ExtractedAttachment, type ExtractedDocument, type ExtractedSection } from "../extracted-document.ts";
import { DEFAULT_MAIL_LIMITS, readMailMessage, type MailLimits } from "./mail-message.ts";
import { readerFailure } from "./reader-failure.ts";

const SUBJECT_IN_SOURCE = 80;

/** What two messages left out, together; `total` counts the readable attachments seen, read or not. */
const addNotRead = (sum: AttachmentsNotRead | undefined, next: AttachmentsNotRead): AttachmentsNotRead => ({
  ...next,
  total: (sum?.total ?? 0) + next.total,
  overCount: (sum?.overCount ?? 0) + next.overCount,
  tooLarge: [...(sum?.tooLarge ?? []), ...next.tooLarge],
});

/**
 * A mailbox is one item whose sections are its messages (source "message N: subject"): a search hit cites the
 * message it came from, chunks never mix two messages, and a mailbox of thousands does not flood the folder.
 */
export async function convertMbox(bytes: Buffer, limits: MailLimits = DEFAULT_MAIL_LIMITS): Promise<ExtractedDocument> {
  const { mboxReader } = await import("mbox-reader");
  const sections: ExtractedSection[] = [];
  const attachments: ExtractedAttachment[] = [];
  let number = 0;
  let notRead: AttachmentsNotRead | undefined;
  try {
    for await (const entry of mboxReader(Readable.from([bytes]))) {
      number++;
      // The limit holds for the mailbox (one item) as a whole: a message reads only what is left of it.
      const message = await readMailMessage(entry.content, { ...limits, maxAttachments: Math.max(0, limits.maxAttachments - attachments.length) });
      if (message.notRead) notRead = addNotRead(notRead, message.notRead);
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
  if (notRead) document.attachmentsNotRead = { ...notRead, total: notRead.total, maxAttachments: limits.maxAttachments };
  if (sections.length === 0) document.notProcessedReason = "The mailbox contains no messages";
  return document;
}
