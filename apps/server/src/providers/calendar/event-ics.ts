import ICAL from "ical.js";
import { escapeIcsText, foldIcsLine, icsUtc } from "./ics-text.ts";

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

const clean = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

/** The VEVENT's lines for these fields (times in UTC, so no VTIMEZONE is needed). */
function eventLines(fields: EventFields, now: Date): string[] {
  return [
    `UID:${clean(fields.uid)}`,
    `DTSTAMP:${icsUtc(now)}`,
    `DTSTART:${icsUtc(fields.start)}`,
    `DTEND:${icsUtc(fields.end)}`,
    `SUMMARY:${escapeIcsText(fields.title)}`,
    ...(fields.location ? [`LOCATION:${escapeIcsText(fields.location)}`] : []),
    ...(fields.description ? [`DESCRIPTION:${escapeIcsText(fields.description)}`] : []),
    ...(fields.organizer && fields.attendees?.length ? [`ORGANIZER:mailto:${clean(fields.organizer)}`] : []),
    ...(fields.attendees ?? []).map((address) => `ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${clean(address)}`),
  ];
}

/** A new event as a whole calendar object, ready to PUT on a CalDAV server. */
export function buildEventIcs(fields: EventFields, now = new Date()): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//SAGE//Calendar//EN",
    "CALSCALE:GREGORIAN",
    "BEGIN:VEVENT",
    ...eventLines(fields, now),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ]
    .map(foldIcsLine)
    .join("\r\n");
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
  event.addPropertyWithValue("dtstamp", ICAL.Time.fromJSDate(now, true));
  event.addPropertyWithValue("dtstart", ICAL.Time.fromJSDate(changes.start, true));
  event.addPropertyWithValue("dtend", ICAL.Time.fromJSDate(changes.end, true));
  event.addPropertyWithValue("summary", changes.title);
  if (changes.location) event.addPropertyWithValue("location", changes.location);
  for (const address of changes.attendees ?? []) {
    const attendee = event.addPropertyWithValue("attendee", `mailto:${clean(address)}`);
    attendee.setParameter("partstat", "NEEDS-ACTION");
    attendee.setParameter("rsvp", "TRUE");
  }
  const sequence = Number(event.getFirstPropertyValue("sequence") ?? 0);
  event.updatePropertyWithValue("sequence", Number.isFinite(sequence) ? sequence + 1 : 1);
  return calendar.toString();
}
