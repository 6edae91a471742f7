import type { CalendarEvent, CalendarThreadData } from "./calendar-reader.entry.ts";
import { decodeText } from "./decode-text.ts";
import type { ExtractedDocument, ExtractedSection } from "../extracted-document.ts";
import { runInThread } from "./run-in-thread.ts";

/** iCalendar: one section per event with its time, title, place, people and description. */
export async function convertIcs(bytes: Buffer): Promise<ExtractedDocument> {
  // ical.js parses in a thread of its own (calendar-reader.entry.ts).
  const events = await runInThread<CalendarThreadData, CalendarEvent[]>(new URL("./calendar-reader.entry.ts", import.meta.url), {
    what: "The calendar",
    workerData: { text: decodeText(unfoldBytes(bytes)) },
  });
  const sections: ExtractedSection[] = events.map((event) => ({
    source: `event ${event.start.slice(0, 10)}: ${event.summary}`.slice(0, 200).trim(),
    text: eventText(event),
  }));
  return sections.length > 0 ? { sections } : { sections: [], notProcessedReason: "The calendar contains no events" };
}

function eventText(event: CalendarEvent): string {
  // A same-day end is shown as its time only: "2024-03-04 10:00 to 11:30".
  // An event with no end or duration ends as it starts: its start alone says that.
  const end = event.end === event.start ? "" : event.end.slice(0, 10) === event.start.slice(0, 10) && event.end.length > 10 ? event.end.slice(11) : event.end;
  const zone = event.timezone && event.timezone !== "floating" ? ` (${event.timezone})` : "";
  const when = event.allDay
    ? `${event.start}${event.end && event.end !== event.start ? ` to ${event.end}` : ""} (all day)`
    : `${event.start}${end ? ` to ${end}` : ""}${zone}`;
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

/**
 * Unfolds lines before decoding: some Thunderbird exports fold inside a multi-byte UTF-8 character, which makes the
 * whole file invalid UTF-8 (and read as Windows-1252) until the fold is removed. Not for UTF-16, whose bytes hold zeros.
 */
function unfoldBytes(bytes: Buffer): Buffer {
  if (bytes.includes(0)) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  for (let index = bytes.indexOf(0x0a); index >= 0; index = bytes.indexOf(0x0a, index + 1)) {
    if (bytes[index + 1] !== 0x20 && bytes[index + 1] !== 0x09) continue;
    parts.push(bytes.subarray(from, bytes[index - 1] === 0x0d ? index - 1 : index));
    from = index + 2;
  }
  return parts.length === 0 ? bytes : Buffer.concat([...parts, bytes.subarray(from)]);
}
