import ICAL from "ical.js";
import { icsCalendar, icsMailto, icsObjectText, icsOneLine, icsText, icsUtcTime, type IcsComponent } from "./ics-calendar.ts";

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
