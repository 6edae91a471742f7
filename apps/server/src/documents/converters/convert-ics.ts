import { createRequire } from "node:module";
import { decodeText } from "./convert-txt.ts";
import type { ExtractedDocument, ExtractedSection } from "../extracted-document.ts";
import { runWorkerScript } from "./run-worker-script.ts";

interface CalendarEvent {
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

// ical.js parses in a worker: a calendar export of many years is large. Times stay as the file writes them, with
// their time zone named, so "10:00 (Europe/Prague)" reads as the organiser meant it.
const ICS_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
try {
  const ICAL = require(workerData.icalPath);
  const calendar = new ICAL.Component(ICAL.parse(workerData.text));
  const person = (value, name) => {
    const address = String(value || "").replace(/^mailto:/i, "");
    return name && address ? name + " <" + address + ">" : name || address;
  };
  const time = (value) => (value ? (value.isDate ? value.toString() : value.toString().replace("T", " ").slice(0, 16)) : "");
  // An all-day event ends at the start of the day after its last day.
  const lastDay = (value) => {
    if (!value || !value.isDate) return value;
    const day = value.clone();
    day.adjust(-1, 0, 0, 0);
    return day;
  };
  const components = calendar.name === "vevent" ? [calendar] : calendar.getAllSubcomponents("vevent");
  const events = components.map((component) => {
    const event = new ICAL.Event(component);
    const organizer = component.getFirstProperty("organizer");
    const rule = component.getFirstPropertyValue("rrule");
    return {
      summary: event.summary || "",
      start: time(event.startDate),
      end: time(lastDay(event.endDate)),
      allDay: Boolean(event.startDate && event.startDate.isDate),
      // A TZID parameter names the zone; a time ending in Z is in ical.js's UTC zone.
      timezone: event.startDate ? String(event.startDate.timezone || (event.startDate.zone && event.startDate.zone.tzid) || "").replace(/^Z$/, "UTC") : "",
      location: event.location || "",
      organizer: organizer ? person(organizer.getFirstValue(), organizer.getParameter("cn")) : "",
      attendees: event.attendees.map((attendee) => person(attendee.getFirstValue(), attendee.getParameter("cn"))).filter(Boolean),
      repeats: rule ? rule.toString() : "",
      description: event.description || "",
    };
  });
  parentPort.postMessage({ result: events });
} catch (error) {
  parentPort.postMessage({ error: String((error && error.message) || error) });
}
`;

const require = createRequire(import.meta.url);

/** iCalendar: one section per event with its time, title, place, people and description. */
export async function convertIcs(bytes: Buffer): Promise<ExtractedDocument> {
  const events = await runWorkerScript<CalendarEvent[]>(ICS_WORKER_SOURCE, {
    what: "The calendar",
    workerData: { text: decodeText(bytes), icalPath: require.resolve("ical.js") },
  });
  const sections: ExtractedSection[] = events.map((event) => ({ source: `event ${event.start.slice(0, 10)}: ${event.summary}`.slice(0, 200).trim(), text: eventText(event) }));
  return sections.length > 0 ? { sections } : { sections: [], notProcessedReason: "The calendar contains no events" };
}

function eventText(event: CalendarEvent): string {
  // A same-day end is shown as its time only: "2024-03-04 10:00 to 11:30".
  const end = event.end.slice(0, 10) === event.start.slice(0, 10) && event.end.length > 10 ? event.end.slice(11) : event.end;
  const zone = event.timezone && event.timezone !== "floating" ? ` (${event.timezone})` : "";
  const when = event.allDay ? `${event.start}${event.end && event.end !== event.start ? ` to ${event.end}` : ""} (all day)` : `${event.start}${end ? ` to ${end}` : ""}${zone}`;
  return [
    `Event: ${event.summary || "(no title)"}`,
    `When: ${when}`,
    event.location && `Where: ${event.location}`,
    event.organizer && `Organizer: ${event.organizer}`,
    event.attendees.length > 0 && `Attendees: ${event.attendees.join(", ")}`,
    event.repeats && `Repeats: ${event.repeats}`,
    event.description && `\n${event.description.trim()}`,
  ]
    .filter(Boolean)
    .join("\n");
}
