import { REMINDERS_FEED_NAME } from "@sage/contracts/calendar";
import { isDateOnly, type Reminder } from "@sage/contracts/reminders";
import { escapeIcsText, foldIcsLine, icsUtc } from "../../providers/calendar/ics-text.ts";

const day = (date: string) => date.replace(/-/g, "");
const dayAfter = (date: string) => {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10).replace(/-/g, "");
};

/**
 * The user's reminders as an iCalendar feed: a reminder with a date is an all-day event on that day; one with a
 * time is a 15-minute event with an alarm at that time (UTC, so no time zone table is needed). UIDs stay the same
 * across fetches, so a subscribing app updates an event rather than adding another.
 */
export function remindersIcs(reminders: readonly Reminder[], host: string, now = new Date()): string {
  const stamp = icsUtc(now);
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
      `LAST-MODIFIED:${icsUtc(reminder.updatedAt)}`,
      ...(dateOnly
        ? [`DTSTART;VALUE=DATE:${day(reminder.dueDate)}`, `DTEND;VALUE=DATE:${dayAfter(reminder.dueDate)}`, "TRANSP:TRANSPARENT"]
        : [`DTSTART:${icsUtc(reminder.dueDate)}`, `DTEND:${icsUtc(new Date(Date.parse(reminder.dueDate) + 15 * 60_000))}`]),
      `SUMMARY:${escapeIcsText(reminder.title)}`,
      ...(reminder.description ? [`DESCRIPTION:${escapeIcsText(reminder.description)}`] : []),
      `PRIORITY:${reminder.priority === "high" ? 1 : reminder.priority === "medium" ? 5 : 9}`,
      `CATEGORIES:${reminder.type}`,
      ...(dateOnly ? [] : ["BEGIN:VALARM", "ACTION:DISPLAY", `DESCRIPTION:${escapeIcsText(reminder.title)}`, "TRIGGER:PT0S", "END:VALARM"]),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR", "");
  return lines.map(foldIcsLine).join("\r\n");
}
