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

/** A calendar of events, each given as its property lines. */
function calendar(events: string[][], calendarProperties: string[] = []): string {
  const body = events.flatMap((lines) => ["BEGIN:VEVENT", "DTSTAMP:20240301T000000Z", ...lines, "END:VEVENT"]);
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SAGE test//EN", ...calendarProperties, ...body, "END:VCALENDAR", ""].join("\r\n");
}

const textOf = (document: { sections: Array<{ text: string }> }) => document.sections.map((section) => section.text).join("\n\n");
const calendarText = async (events: string[][]) => textOf(await convertFile("ics", Buffer.from(calendar(events))));

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

  it("keeps a holiday calendar whose date-times have no time ('2022-01-01T::')", async () => {
    const document = await convertFile(
      "ics",
      Buffer.from(
        calendar([
          ["UID:h1", "DTSTART:2022-01-01T::", "DTEND:2022-01-02T::", "SUMMARY:New Year's Day"],
          ["UID:h2", "DTSTART:2022-12-25T10:30:00", "SUMMARY:Christmas service"],
          ["UID:h3", "DTSTART;VALUE=DATE:20221226", "SUMMARY:Boxing Day"],
        ]),
      ),
    );
    expect(document.sections.map((section) => section.text.split("\n").slice(0, 2).join(" | "))).toEqual([
      "Event: New Year's Day | When: 2022-01-01 (all day)",
      "Event: Christmas service | When: 2022-12-25 10:30",
      "Event: Boxing Day | When: 2022-12-26 (all day)",
    ]);
  });

  it("reads an invitation whose CN parameters are unquoted and hold ':' and ';'", async () => {
    const text = await calendarText([
      [
        "UID:b1",
        "DTSTART:20240304T090000Z",
        "SUMMARY:Room booking",
        "ORGANIZER;CN=Room 4: Booking Service:mailto:rooms@example.com",
        "ATTENDEE;CN=Novak; Jana;ROLE=REQ-PARTICIPANT:mailto:jana@example.com",
        "ATTENDEE;CN=Smith, Bob:mailto:bob@example.com",
      ],
    ]);
    expect(text).toContain("Organizer: Room 4: Booking Service <rooms@example.com>");
    expect(text).toContain("Attendees: Novak; Jana <jana@example.com>, Smith, Bob <bob@example.com>");
  });

  it("keeps an event with no start, beside RFC 7986 calendar properties, instead of failing the calendar", async () => {
    const document = await convertFile(
      "ics",
      Buffer.from(
        calendar(
          [
            ["UID:r1", "SUMMARY:Company picnic", "DURATION:PT3H", "IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/png:http://example.com/images/party.png"],
            [
              "UID:r2",
              "DTSTART:20240601T120000Z",
              "SUMMARY:Board call",
              "CONFERENCE;VALUE=URI;FEATURE=PHONE,MODERATOR;LABEL=Moderator dial-in:tel:+1-412-555-0123,,,654321",
            ],
          ],
          ["NAME:Company Vacation Days", "COLOR:turquoise", "REFRESH-INTERVAL;VALUE=DURATION:P1W", "SOURCE;VALUE=URI:https://example.com/holidays.ics"],
        ),
      ),
    );
    expect(document.notProcessedReason).toBeUndefined();
    expect(document.sections.map((section) => section.text.split("\n")[0])).toEqual(["Event: Company picnic", "Event: Board call"]);
  });

  it("reads a badly folded Thunderbird export: folds without a space, and inside a UTF-8 character", async () => {
    const description = "DESCRIPTION:Agenda for the quarterly review of the Falcon programme with the supplier from Pr";
    const bytes = Buffer.concat([
      Buffer.from(
        calendar([["UID:m1", "DTSTART:20240304T100000Z", "SUMMARY:Revue trimestrielle", description, "ague and the finance team.", "Bring the budget."]]).split(
          "SUMMARY:Revue",
        )[0]!,
      ),
      Buffer.from("SUMMARY:Revue trimestrielle \u00e0 Montr"),
      Buffer.from([0xc3, 0x0d, 0x0a, 0x20, 0xa9]),
      Buffer.from(`al\r\n${description}\r\nague and the finance team.\r\nBring the budget.\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`),
    ]);
    const text = textOf(await convertFile("ics", bytes));
    expect(text).toContain("Event: Revue trimestrielle à Montréal");
    expect(text).toContain("supplier from Prague and the finance team.\nBring the budget.");
  });

  it("refuses a file that is not iCalendar with a clear error", async () => {
    await expect(convertFile("ics", Buffer.from("hello"))).rejects.toThrow(/The calendar could not be read/);
  });
});
