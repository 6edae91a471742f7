import { wallTime } from "../../providers/calendar/zoned-time.ts";
import { partiesOf, SENT_FOLDER } from "../people/people.module.ts";

/** A synced message's headers, as threads are followed by. */
export interface Header {
  id: number;
  folder: string;
  subject: string;
  fromAddress: string;
  toAddress: string;
  date: string | null;
  messageId: string | null;
  threadReferences: string | null;
}

const REPLY_PREFIX = /^(?:(?:re|fwd?|aw|wg|sv|tr)\s*:\s*)+/i;
/** The subject without Re:/Fwd:, as one thread shares it. */
export const threadKey = (subject: string) => subject.replace(REPLY_PREFIX, "").trim().toLowerCase();

/** Whether the user wrote it: a Sent folder, or one of their own addresses as the sender. */
export const sentByUser = (header: Pick<Header, "folder" | "fromAddress">, own: ReadonlySet<string>) =>
  SENT_FOLDER.test(header.folder) || partiesOf(header.fromAddress).some((party) => own.has(party.address));

/** Whether `later` answers `earlier`: it names it in its References, or continues its subject after it. */
export function answers(later: Header, earlier: Header): boolean {
  if (!later.date || !earlier.date || later.date <= earlier.date) return false;
  if (earlier.messageId && later.threadReferences?.includes(earlier.messageId)) return true;
  return threadKey(later.subject) === threadKey(earlier.subject) && threadKey(earlier.subject) !== "";
}

/** The user has answered this mail: a mail they sent later in its thread. */
export const repliedTo = (mail: Header, headers: readonly Header[], own: ReadonlySet<string>) =>
  headers.some((other) => other.id !== mail.id && sentByUser(other, own) && answers(other, mail));

/** Someone the user wrote to has answered: a mail from one of the recipients later in its thread. */
export function answeredBy(sent: Header, headers: readonly Header[], own: ReadonlySet<string>): boolean {
  const recipients = new Set(partiesOf(sent.toAddress).map((party) => party.address));
  return headers.some(
    (other) =>
      other.id !== sent.id && !sentByUser(other, own) && answers(other, sent) && partiesOf(other.fromAddress).some((party) => recipients.has(party.address)),
  );
}

/**
 * Working days (Monday to Friday, in the user's zone) since the day a mail was sent: the days after that day up to and
 * including today. Sent on a Monday, it has waited 3 working days on Thursday, and 4 on the next Monday after Friday.
 */
export function workingDaysSince(sentAt: string, now: Date, zone: string): number {
  const start = wallTime(new Date(sentAt).getTime(), zone);
  const today = wallTime(now.getTime(), zone);
  let day = Date.UTC(start.year, start.month - 1, start.day);
  const last = Date.UTC(today.year, today.month - 1, today.day);
  let count = 0;
  for (day += 86_400_000; day <= last && count < 366; day += 86_400_000) {
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}
