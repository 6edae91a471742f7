// Runs in a worker thread (convert-ics.ts starts it): ical.js parses here, as a calendar export of many years is
// large. Times stay as the file writes them, with their time zone named, so "10:00 (Europe/Prague)" reads as the
// organiser meant it.
import ICAL from "ical.js";
import { replyToParent } from "./reply-to-parent.ts";

export interface CalendarThreadData {
  text: string;
}

export interface CalendarEvent {
  summary: string;
  start: string;
  end: string;
  allDay: boolean;
  timezone: string;
  location: string;
  organizer: string;
  attendees: string[];
  repeats: string;
  description: string;
}

/** A time whose TZID has no VTIMEZONE in the file keeps the zone's name in `timezone` (not in ical.js's types). */
type Time = InstanceType<typeof ICAL.Time> & { timezone?: string };

const person = (value: unknown, name: unknown) => {
  const address = String(value || "").replace(/^mailto:/i, "");
  return name && address ? `${String(name)} <${address}>` : String(name || address);
};
const time = (value: Time | null | undefined) => (value ? (value.isDate ? value.toString() : value.toString().replace("T", " ").slice(0, 16)) : "");
/** An all-day event ends at the start of the day after its last day. */
const lastDay = (value: Time | null | undefined) => {
  if (!value || !value.isDate) return value;
  const day = value.clone();
  day.adjust(-1, 0, 0, 0);
  return day;
};

replyToParent(({ text }: CalendarThreadData): CalendarEvent[] => {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const components = calendar.name === "vevent" ? [calendar] : calendar.getAllSubcomponents("vevent");
  return components.map((component) => {
    const event = new ICAL.Event(component);
    const organizer = component.getFirstProperty("organizer");
    const rule = component.getFirstPropertyValue("rrule");
    const start: Time | null = event.startDate;
    return {
      summary: event.summary || "",
      start: time(start),
      end: time(lastDay(event.endDate)),
      allDay: Boolean(start && start.isDate),
      // A TZID parameter names the zone; a time ending in Z is in ical.js's UTC zone.
      timezone: start ? String(start.timezone || (start.zone && start.zone.tzid) || "").replace(/^Z$/, "UTC") : "",
      location: event.location || "",
      organizer: organizer ? person(organizer.getFirstValue(), organizer.getParameter("cn")) : "",
      attendees: event.attendees.map((attendee) => person(attendee.getFirstValue(), attendee.getParameter("cn"))).filter(Boolean),
      repeats: rule ? rule.toString() : "",
      description: event.description || "",
    };
  });
});
