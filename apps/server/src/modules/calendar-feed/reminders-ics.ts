import ICAL from "ical.js";
import { REMINDERS_FEED_NAME } from "@sage/contracts/calendar";
import { isDateOnly, type Reminder } from "@sage/contracts/reminders";
import { icsCalendar, icsDay, icsDuration, icsObjectText, icsText, icsUtcTime } from "../../providers/calendar/ics-calendar.ts";

const dayAfter = (date: string) => {
  const next = icsDay(date);
  next.adjust(1, 0, 0, 0);
  return next;
};

/**
 * The user's reminders as an iCalendar feed: a reminder with a date is an all-day event on that day; one with a
 * time is a 15-minute event with an alarm at that time (UTC, so no time zone table is needed). UIDs stay the same
 * across fetches, so a subscribing app updates an event rather than adding another.
 */
export function remindersIcs(reminders: readonly Reminder[], host: string, now = new Date()): string {
  const calendar = icsCalendar("-//SAGE//Reminders//EN", { "X-WR-CALNAME": REMINDERS_FEED_NAME, "X-PUBLISHED-TTL": "PT15M" });
  calendar.addPropertyWithValue("method", "PUBLISH");
  calendar.addPropertyWithValue("refresh-interval", icsDuration("PT15M"));
  for (const reminder of reminders) {
    const dateOnly = isDateOnly(reminder.dueDate);
    const event = new ICAL.Component("vevent");
    event.addPropertyWithValue("uid", `reminder-${reminder.id}@${host}`);
    event.addPropertyWithValue("dtstamp", icsUtcTime(now));
    event.addPropertyWithValue("last-modified", icsUtcTime(reminder.updatedAt));
    if (dateOnly) {
      event.addPropertyWithValue("dtstart", icsDay(reminder.dueDate));
      event.addPropertyWithValue("dtend", dayAfter(reminder.dueDate));
      event.addPropertyWithValue("transp", "TRANSPARENT");
    } else {
      event.addPropertyWithValue("dtstart", icsUtcTime(reminder.dueDate));
      event.addPropertyWithValue("dtend", icsUtcTime(new Date(Date.parse(reminder.dueDate) + 15 * 60_000)));
    }
    event.addPropertyWithValue("summary", icsText(reminder.title));
    if (reminder.description) event.addPropertyWithValue("description", icsText(reminder.description));
    event.addPropertyWithValue("priority", reminder.priority === "high" ? 1 : reminder.priority === "medium" ? 5 : 9);
    event.addPropertyWithValue("categories", reminder.type);
    if (!dateOnly) {
      const alarm = new ICAL.Component("valarm");
      alarm.addPropertyWithValue("action", "DISPLAY");
      alarm.addPropertyWithValue("description", icsText(reminder.title));
      alarm.addPropertyWithValue("trigger", icsDuration("PT0S"));
      event.addSubcomponent(alarm);
    }
    calendar.addSubcomponent(event);
  }
  return icsObjectText(calendar);
}
