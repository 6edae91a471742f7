import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";

const CALENDAR = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//SAGE test//EN",
  "BEGIN:VEVENT",
  "UID:board-1",
  "DTSTAMP:20240301T000000Z",
  "DTSTART;TZID=Europe/Prague:20240304T100000",
  "DTEND;TZID=Europe/Prague:20240304T113000",
  "SUMMARY:Board meeting",
  "LOCATION:Room 4\\, Prague office",
  "ORGANIZER;CN=Jana Novak:mailto:jana@example.com",
  "ATTENDEE;CN=Bob Smith:mailto:bob@example.com",
  "ATTENDEE:mailto:eve@example.com",
  "RRULE:FREQ=WEEKLY;BYDAY=MO",
  "DESCRIPTION:Review the Falcon budget\\nand the hiring plan.",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:offsite-1",
  "DTSTAMP:20240301T000000Z",
  "DTSTART;VALUE=DATE:20240310",
  "DTEND;VALUE=DATE:20240312",
  "SUMMARY:Strategy offsite",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

describe("calendars", () => {
  it("reads each event's time, title, place, people and description as its own section", async () => {
    const document = await convertFile("ics", Buffer.from(CALENDAR));
    expect(document.sections).toEqual([
      {
        source: "event 2024-03-04: Board meeting",
        text: [
          "Event: Board meeting",
          "When: 2024-03-04 10:00 to 11:30 (Europe/Prague)",
          "Where: Room 4, Prague office",
          "Organizer: Jana Novak <jana@example.com>",
          "Attendees: Bob Smith <bob@example.com>, eve@example.com",
          "Repeats: FREQ=WEEKLY;BYDAY=MO",
          "",
          "Review the Falcon budget",
          "and the hiring plan.",
        ].join("\n"),
      },
      { source: "event 2024-03-10: Strategy offsite", text: "Event: Strategy offsite\nWhen: 2024-03-10 to 2024-03-11 (all day)" },
    ]);
  });

  it("refuses a file that is not iCalendar with a clear error", async () => {
    await expect(convertFile("ics", Buffer.from("hello"))).rejects.toThrow(/The calendar could not be read/);
  });
});
