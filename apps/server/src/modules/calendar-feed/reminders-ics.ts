import { REMINDERS_FEED_NAME } from "@sage/contracts/calendar";
import { isDateOnly, type Reminder } from "@sage/contracts/reminders";

const escapeText = (value: string) =>
  value
    .replace(/\\/g, "\\\\")
    .replace(/\r?\n/g, "\\n")
    .replace(/([,;])/g, "\\$1");
const utc = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
const day = (date: string) => date.replace(/-/g, "");
const dayAfter = (date: string) => {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10).replace(/-/g, "");
};

/** Folds a content line at 75 octets (RFC 5545 3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

/**
 * The user's reminders as an iCalendar feed: a reminder with a date is an all-day event on that day; one with a
 * time is a 15-minute event with an alarm at that time (UTC, so no time zone table is needed). UIDs stay the same
 * across fetches, so a subscribing app updates an event rather than adding another.
 */
export function remindersIcs(reminders: readonly Reminder[], host: string, now = new Date()): string {
  const stamp = utc(now.toISOString());
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//SAGE//Reminders//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${REMINDERS_FEED_NAME}`,
    "X-PUBLISHED-TTL:PT15M",
    "REFRESH-INTERVAL;VALUE=DURATION:PT15M",
  ];
  for (const reminder of reminders) {
    const dateOnly = isDateOnly(reminder.dueDate);
    lines.push(
      "BEGIN:VEVENT",
      `UID:reminder-${reminder.id}@${host}`,
      `DTSTAMP:${stamp}`,
      `LAST-MODIFIED:${utc(reminder.updatedAt)}`,
      ...(dateOnly
        ? [`DTSTART;VALUE=DATE:${day(reminder.dueDate)}`, `DTEND;VALUE=DATE:${dayAfter(reminder.dueDate)}`, "TRANSP:TRANSPARENT"]
        : [`DTSTART:${utc(reminder.dueDate)}`, `DTEND:${utc(new Date(Date.parse(reminder.dueDate) + 15 * 60_000).toISOString())}`]),
      `SUMMARY:${escapeText(reminder.title)}`,
      ...(reminder.description ? [`DESCRIPTION:${escapeText(reminder.description)}`] : []),
      `PRIORITY:${reminder.priority === "high" ? 1 : reminder.priority === "medium" ? 5 : 9}`,
      `CATEGORIES:${reminder.type}`,
      ...(dateOnly ? [] : ["BEGIN:VALARM", "ACTION:DISPLAY", `DESCRIPTION:${escapeText(reminder.title)}`, "TRIGGER:PT0S", "END:VALARM"]),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR", "");
  return lines.map(fold).join("\r\n");
}
