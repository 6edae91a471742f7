// Runs in a worker thread (convert-ics.ts starts it): ical.js parses here, as a calendar export of many years is
// large. Times stay as the file writes them, with their time zone named, so "10:00 (Europe/Prague)" reads as the
// organiser meant it.
import ICAL from "ical.js";
import { repairCalendarText } from "./calendar-repair.ts";
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
  if (!/^BEGIN:(?:VCALENDAR|VEVENT)\s*$/im.test(text)) throw new Error("the file is not in iCalendar format");
  return readableEvents(repairCalendarText(text)).flatMap((component) => readEvent(component) ?? []);
});

/** Every VEVENT ical.js can parse: the whole calendar at once, else each event on its own (with the time zones). */
function readableEvents(text: string): InstanceType<typeof ICAL.Component>[] {
  try {
    const calendar = new ICAL.Component(ICAL.parse(text));
    return calendar.name === "vevent" ? [calendar] : calendar.getAllSubcomponents("vevent");
  } catch {
    const zones = text.match(/^BEGIN:VTIMEZONE$[\s\S]*?^END:VTIMEZONE$/gim) ?? [];
    return (text.match(/^BEGIN:VEVENT$[\s\S]*?^END:VEVENT$/gim) ?? []).flatMap((event) => {
      try {
        const calendar = new ICAL.Component(ICAL.parse(["BEGIN:VCALENDAR", "VERSION:2.0", ...zones, event, "END:VCALENDAR"].join("\r\n")));
        return calendar.getAllSubcomponents("vevent");
      } catch {
        return [];
      }
    });
  }
}

/** Each field on its own: an event with a start ical.js cannot compute keeps its title and text. */
function readEvent(component: InstanceType<typeof ICAL.Component>): CalendarEvent | undefined {
  const event = new ICAL.Event(component);
  const start = attempt((): Time | null => (component.hasProperty("dtstart") ? event.startDate : null));
  const organizer = component.getFirstProperty("organizer");
  const rule = attempt(() => component.getFirstPropertyValue("rrule"));
  const read: CalendarEvent = {
    summary: attempt(() => event.summary) || "",
    start: time(start),
    end: start ? time(attempt(() => lastDay(event.endDate))) : "",
    allDay: Boolean(start && start.isDate),
    // A TZID parameter names the zone; a time ending in Z is in ical.js's UTC zone.
    timezone: start ? String(start.timezone || (start.zone && start.zone.tzid) || "").replace(/^Z$/, "UTC") : "",
    location: attempt(() => event.location) || "",
    organizer: organizer ? person(organizer.getFirstValue(), organizer.getParameter("cn")) : "",
    attendees: (attempt(() => event.attendees) ?? []).map((attendee) => person(attendee.getFirstValue(), attendee.getParameter("cn"))).filter(Boolean),
    repeats: rule ? String(rule) : "",
    description: attempt(() => event.description) || "",
  };
  return read.summary || read.start || read.description ? read : undefined;
}

function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
