import ICAL from "ical.js";
import { icsCalendar, icsDay, icsMailto, icsObjectText, icsOneLine, icsText, icsUtcTime, type IcsComponent } from "./ics-calendar.ts";
import { formatZoned, isTimeZone } from "./zoned-time.ts";

export interface EventFields {
  uid: string;
  title: string;
  /** UTC instants. */
  start: Date;
  end: Date;
  location?: string;
  attendees?: string[];
  /** The calendar owner's address, when known (ORGANIZER of an event with attendees). */
  organizer?: string;
  description?: string;
}

/** Adds an invitee who has not answered yet and is asked to. */
function addAttendee(event: IcsComponent, address: string, role?: string) {
  const attendee = event.addPropertyWithValue("attendee", icsMailto(address));
  if (role) attendee.setParameter("role", role);
  attendee.setParameter("partstat", "NEEDS-ACTION");
  attendee.setParameter("rsvp", "TRUE");
}

/** A new event as a whole calendar object, ready to PUT on a CalDAV server (times in UTC: no VTIMEZONE needed). */
export function buildEventIcs(fields: EventFields, now = new Date()): string {
  const calendar = icsCalendar("-//SAGE//Calendar//EN");
  const event = new ICAL.Component("vevent");
  event.addPropertyWithValue("uid", icsOneLine(fields.uid));
  event.addPropertyWithValue("dtstamp", icsUtcTime(now));
  event.addPropertyWithValue("dtstart", icsUtcTime(fields.start));
  event.addPropertyWithValue("dtend", icsUtcTime(fields.end));
  event.addPropertyWithValue("summary", icsText(fields.title));
  if (fields.location) event.addPropertyWithValue("location", icsText(fields.location));
  if (fields.description) event.addPropertyWithValue("description", icsText(fields.description));
  if (fields.organizer && fields.attendees?.length) event.addPropertyWithValue("organizer", icsMailto(fields.organizer));
  for (const address of fields.attendees ?? []) addAttendee(event, address, "REQ-PARTICIPANT");
  calendar.addSubcomponent(event);
  return icsObjectText(calendar);
}

/**
 * The stored object with its (single, non-recurring) event changed: title, times, place and attendees replaced,
 * everything else the organiser's app wrote kept as it was; SEQUENCE goes up so invitees' apps take the change.
 * Null when the object holds no such event.
 */
export function updateEventIcs(ics: string, uid: string, changes: Omit<EventFields, "uid">, now = new Date()): string | null {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const event = calendar.getAllSubcomponents("vevent").find((component) => String(component.getFirstPropertyValue("uid")) === uid);
  if (!event || event.hasProperty("rrule") || event.hasProperty("recurrence-id")) return null;
  for (const name of ["dtstart", "dtend", "duration", "summary", "location", "attendee", "dtstamp"]) event.removeAllProperties(name);
  event.addPropertyWithValue("dtstamp", icsUtcTime(now));
  event.addPropertyWithValue("dtstart", icsUtcTime(changes.start));
  event.addPropertyWithValue("dtend", icsUtcTime(changes.end));
  event.addPropertyWithValue("summary", icsText(changes.title));
  if (changes.location) event.addPropertyWithValue("location", icsText(changes.location));
  for (const address of changes.attendees ?? []) addAttendee(event, address);
  const sequence = Number(event.getFirstPropertyValue("sequence") ?? 0);
  event.updatePropertyWithValue("sequence", Number.isFinite(sequence) ? sequence + 1 : 1);
  return icsObjectText(calendar);
}

/**
 * The stored object with one occurrence of its repeating event cancelled (decision 067): an EXDATE on the series'
 * master, written in the same form as its DTSTART (a day, UTC, or a wall time in its TZID), and any changed copy of
 * that occurrence removed; SEQUENCE goes up. `occurrence` is the occurrence's original start (UTC ISO) and the zone
 * SAGE read it in. An object holding only dates of someone's series (an invitation to one date, no master) loses that
 * date's component, and `""` when nothing is left (delete the object). Null when the object holds no such date.
 */
export function cancelOccurrenceIcs(ics: string, uid: string, occurrence: { recurrenceId: string; timeZone: string }, now = new Date()): string | null {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents("vevent").filter((component) => String(component.getFirstPropertyValue("uid")) === uid);
  const master = events.find((component) => !component.hasProperty("recurrence-id") && (component.hasProperty("rrule") || component.hasProperty("rdate")));
  const at = Date.parse(occurrence.recurrenceId);
  const wall = (timeZone: string) => formatZoned(at, timeZone).slice(0, 19);
  /** The same occurrence, written as a RECURRENCE-ID or DTSTART value is. */
  const sameOccurrence = (value: InstanceType<typeof ICAL.Time>, valueZone: string | null) =>
    value.isDate
      ? value.toString() === wall(occurrence.timeZone).slice(0, 10)
      : value.toString().endsWith("Z")
        ? Date.parse(value.toString()) === at
        : valueZone !== null && value.toString().slice(0, 19) === wall(valueZone);
  const copies = events.filter((component) => {
    const property = component.getFirstProperty("recurrence-id");
    if (!property) return false;
    const copyTzid = property.getParameter("tzid");
    const copyZone = typeof copyTzid === "string" && isTimeZone(copyTzid) ? copyTzid : copyTzid ? null : occurrence.timeZone;
    return sameOccurrence(property.getFirstValue() as InstanceType<typeof ICAL.Time>, copyZone);
  });
  for (const copy of copies) calendar.removeSubcomponent(copy);
  const start = master?.getFirstProperty("dtstart");
  if (!master || !start) {
    if (copies.length === 0) return null;
    return calendar.getAllSubcomponents("vevent").length === 0 ? "" : icsObjectText(calendar);
  }
  const first = start.getFirstValue() as InstanceType<typeof ICAL.Time>;
  const tzid = start.getParameter("tzid");
  const zone = typeof tzid === "string" && isTimeZone(tzid) ? tzid : !tzid && !first.toString().endsWith("Z") ? occurrence.timeZone : null;
  if (first.isDate) master.addPropertyWithValue("exdate", icsDay(wall(occurrence.timeZone)));
  else if (zone === null) master.addPropertyWithValue("exdate", icsUtcTime(new Date(at)));
  else {
    const exdate = master.addPropertyWithValue("exdate", ICAL.Time.fromDateTimeString(wall(zone)));
    if (tzid) exdate.setParameter("tzid", String(tzid));
  }
  master.updatePropertyWithValue("dtstamp", icsUtcTime(now));
  const sequence = Number(master.getFirstPropertyValue("sequence") ?? 0);
  master.updatePropertyWithValue("sequence", Number.isFinite(sequence) ? sequence + 1 : 1);
  return icsObjectText(calendar);
}
