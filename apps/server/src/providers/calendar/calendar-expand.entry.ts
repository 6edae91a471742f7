// Runs in a worker thread (expand-calendar.ts starts it): ical.js parses the synced calendars here, as a calendar
// from a subscription is someone else's text, and a recurring rule can ask for a great many occurrences.
import ICAL from "ical.js";
import { replyToParent } from "../../documents/converters/reply-to-parent.ts";
import { isTimeZone, zonedToUtc } from "./zoned-time.ts";

export interface ExpandRequest {
  objects: Array<{ id: number; ics: string }>;
  /** The window occurrences are kept in (UTC ISO). */
  from: string;
  to: string;
  /** The user's zone: floating and all-day times are read in it. */
  timeZone: string;
}

export interface ExpandResult {
  occurrences: Occurrence[];
  /** Objects that could not be parsed at all. */
  unreadable: number[];
  /** Events found (a recurring one with its exceptions counts once; an unparsable object counts as one)... */
  events: number;
  /** ...and those of them that could not be read. */
  unreadableEvents: number;
}

export interface Occurrence {
  objectId: number;
  uid: string;
  /** The occurrence's original start (UTC ISO) for a recurring event; null for a single one. */
  recurrenceId: string | null;
  title: string;
  location: string;
  /** DESCRIPTION, as its organiser wrote it (cut to 4,000 characters). */
  description: string;
  startAt: string;
  endAt: string;
  allDay: boolean;
  timeZone: string;
  attendees: string[];
  busy: boolean;
  recurring: boolean;
}

type Time = InstanceType<typeof ICAL.Time> & { timezone?: string };
type Period = InstanceType<typeof ICAL.Period>;
type Component = InstanceType<typeof ICAL.Component>;

/** Steps of one rule looked at, at most: a rule every minute for years is cut here, not left to run. */
const MAX_STEPS = 20_000;
/** A moved occurrence may land this far from its original time and still be found. */
const MOVED_MARGIN_MS = 62 * 86_400_000;

/** The instant a time names: its own zone (from the file's VTIMEZONE), else a named zone Intl knows, else the user's. */
function instant(time: Time, userZone: string): { ms: number; zone: string } {
  const wall = {
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.isDate ? 0 : time.hour,
    minute: time.isDate ? 0 : time.minute,
    second: time.isDate ? 0 : time.second,
  };
  if (time.isDate) return { ms: zonedToUtc(wall, userZone), zone: "" };
  const zone = time.zone;
  if (zone && zone.tzid === "UTC") return { ms: time.toUnixTime() * 1000, zone: "" };
  if (zone && zone.tzid && zone.tzid !== "floating" && zone.component) return { ms: time.toUnixTime() * 1000, zone: zone.tzid };
  const named = time.timezone ?? (zone?.tzid && zone.tzid !== "floating" ? zone.tzid : "");
  if (named && isTimeZone(named)) return { ms: zonedToUtc(wall, named), zone: named };
  return { ms: zonedToUtc(wall, userZone), zone: "" };
}

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

function attendeesOf(component: Component): string[] {
  return component
    .getAllProperties("attendee")
    .map((property) => {
      const address = text(property.getFirstValue()).replace(/^mailto:/i, "");
      const name = text(property.getParameter("cn"));
      return name && address ? `${name} <${address}>` : name || address;
    })
    .filter(Boolean);
}

function occurrence(
  objectId: number,
  item: InstanceType<typeof ICAL.Event>,
  start: Time,
  end: Time | null,
  recurrenceId: Time | null,
  recurring: boolean,
  userZone: string,
): Occurrence | null {
  const component = item.component;
  if (text(component.getFirstPropertyValue("status")).toUpperCase() === "CANCELLED") return null;
  const begins = instant(start, userZone);
  let endMs = end ? instant(end, userZone).ms : begins.ms;
  if (start.isDate && (!end || endMs <= begins.ms)) {
    const dayAfter = start.clone() as Time;
    dayAfter.adjust(1, 0, 0, 0);
    endMs = instant(dayAfter, userZone).ms;
  }
  if (endMs < begins.ms) endMs = begins.ms;
  const transparency = text(component.getFirstPropertyValue("transp")).toUpperCase();
  return {
    objectId,
    uid: text(item.uid),
    recurrenceId: recurrenceId ? new Date(instant(recurrenceId, userZone).ms).toISOString() : null,
    title: text(item.summary).trim() || "(no title)",
    location: text(item.location).trim(),
    description: text(item.description).trim().slice(0, 4_000),
    startAt: new Date(begins.ms).toISOString(),
    endAt: new Date(endMs).toISOString(),
    allDay: start.isDate,
    timeZone: begins.zone,
    attendees: attendeesOf(component),
    // Busy unless it says TRANSP:TRANSPARENT (RFC 5545's default is OPAQUE), all-day ones too: a day off blocks the
    // day; holidays and trips from Google or Outlook come marked transparent (decision 090).
    busy: transparency !== "TRANSPARENT",
    recurring,
  };
}

/** What one object held: its events (a recurring one with its exceptions counts once) and those that could not be read. */
interface Expanded {
  occurrences: Occurrence[];
  events: number;
  unreadableEvents: number;
}

function expandObject(objectId: number, ics: string, fromMs: number, toMs: number, userZone: string): Expanded {
  const parsed = ICAL.parse(ics) as unknown[];
  // A file of several VCALENDARs one after another (feeds glued together) parses as a list of them.
  const roots = (Array.isArray(parsed[0]) ? parsed : [parsed]).map((root) => new ICAL.Component(root as never));
  const events = roots.flatMap((root) => (root.name === "vevent" ? [root] : root.getAllSubcomponents("vevent")));
  const byUid = new Map<string, { master?: Component; exceptions: Component[] }>();
  for (const component of events) {
    const uid = text(component.getFirstPropertyValue("uid")) || `no-uid-${byUid.size}`;
    const group = byUid.get(uid) ?? { exceptions: [] };
    if (component.hasProperty("recurrence-id")) group.exceptions.push(component);
    else group.master = component;
    byUid.set(uid, group);
  }
  const found: Occurrence[] = [];
  let unreadableEvents = 0;
  for (const group of byUid.values()) {
    const kept: Occurrence[] = [];
    const keep = (entry: Occurrence | null) => {
      if (entry && Date.parse(entry.endAt) > fromMs && Date.parse(entry.startAt) < toMs) kept.push(entry);
    };
    try {
      expandGroup(objectId, group, keep, toMs, userZone);
      found.push(...kept);
    } catch {
      // One event ical.js cannot expand does not hide the calendar's others (a subscription is one object).
      unreadableEvents += 1;
    }
  }
  return { occurrences: found, events: byUid.size, unreadableEvents };
}

function expandGroup(
  objectId: number,
  group: { master?: Component; exceptions: Component[] },
  keep: (entry: Occurrence | null) => void,
  toMs: number,
  userZone: string,
): void {
  if (!group.master) {
    // Invited to one occurrence only: each stands on its own.
    for (const component of group.exceptions) {
      const event = new ICAL.Event(component);
      keep(occurrence(objectId, event, event.startDate as Time, event.endDate as Time, event.recurrenceId as Time, true, userZone));
    }
    return;
  }
  const event = new ICAL.Event(group.master, { exceptions: group.exceptions, strictExceptions: false });
  if (!group.master.hasProperty("dtstart")) return;
  if (!event.isRecurring()) {
    keep(occurrence(objectId, event, event.startDate as Time, event.endDate as Time, null, false, userZone));
    return;
  }
  const iterator = event.iterator();
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = iterator.next() as Time | Period | undefined;
    if (!next) break;
    // An RDATE given as a PERIOD (RFC 5545 3.8.5.2) comes as a period: an extra occurrence with its own end.
    if (next instanceof ICAL.Period) {
      if (instant(next.start as Time, userZone).ms > toMs + MOVED_MARGIN_MS) break;
      keep(occurrence(objectId, event, next.start as Time, next.getEnd() as Time, next.start as Time, true, userZone));
      continue;
    }
    if (instant(next, userZone).ms > toMs + MOVED_MARGIN_MS) break;
    const details = event.getOccurrenceDetails(next);
    keep(occurrence(objectId, details.item, details.startDate as Time, details.endDate as Time, details.recurrenceId as Time, true, userZone));
  }
}

replyToParent(({ objects, from, to, timeZone }: ExpandRequest): ExpandResult => {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  const result: ExpandResult = { occurrences: [], unreadable: [], events: 0, unreadableEvents: 0 };
  for (const object of objects) {
    try {
      const expanded = expandObject(object.id, object.ics, fromMs, toMs, timeZone);
      result.occurrences.push(...expanded.occurrences);
      result.events += expanded.events;
      result.unreadableEvents += expanded.unreadableEvents;
    } catch {
      // One unreadable object does not hide the rest of the calendar.
      result.unreadable.push(object.id);
      result.events += 1;
      result.unreadableEvents += 1;
    }
  }
  return result;
});
