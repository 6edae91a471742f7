import { calendarText } from "@sage/testkit/calendar-fixtures";
import { describe, expect, it } from "vitest";
import { cancelOccurrenceIcs } from "./event-ics.ts";
import { expandCalendar } from "./expand-calendar.ts";

const window = { from: "2026-06-01T00:00:00Z", to: "2026-07-01T00:00:00Z", timeZone: "Europe/Prague" };
const series = (uid: string, start: string, end: string) =>
  calendarText("BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20260501T000000Z", start, end, "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Standup", "END:VEVENT");

/** The occurrences SAGE lists for an object; a floating or all-day one names no zone, and SAGE reads it in the user's. */
async function listed(ics: string) {
  const { occurrences } = await expandCalendar({ objects: [{ id: 1, ics }], ...window });
  return occurrences.map((entry) => ({ startAt: entry.startAt, recurrenceId: entry.recurrenceId!, timeZone: entry.timeZone || window.timeZone }));
}

// One date of a repeating event cancelled (decision 067): an EXDATE in the form of the series' DTSTART, read back by
// the same expansion SAGE syncs with: that date goes, the others stay.
describe("cancelling one date of a repeating event", () => {
  it.each([
    ["a series in UTC", "DTSTART:20260602T070000Z", "DTEND:20260602T071500Z", /EXDATE:20260609T070000Z/],
    ["an all-day series", "DTSTART;VALUE=DATE:20260602", "DTEND;VALUE=DATE:20260603", /EXDATE;VALUE=DATE:20260609/],
    ["a floating series (read in the user's zone)", "DTSTART:20260602T090000", "DTEND:20260602T091500", /EXDATE:20260609T090000\r?\n/],
    [
      "a series in a named zone",
      "DTSTART;TZID=Europe/Prague:20260602T090000",
      "DTEND;TZID=Europe/Prague:20260602T091500",
      /EXDATE;TZID=Europe\/Prague:20260609T090000/,
    ],
  ])("%s", async (_name, start, end, exdate) => {
    const ics = series("standup@sage.test", start, end);
    const before = await listed(ics);
    expect(before).toHaveLength(3);
    const cancelled = cancelOccurrenceIcs(ics, "standup@sage.test", before[1]!)!;
    expect(cancelled).toMatch(exdate);
    expect(cancelled).toMatch(/SEQUENCE:1/);
    expect((await listed(cancelled)).map((entry) => entry.startAt)).toEqual([before[0]!.startAt, before[2]!.startAt]);
  });

  it("an invitation to one date only: that date's component goes, and nothing is left of an object that held only it", async () => {
    const date = (day: string) => [
      "BEGIN:VEVENT",
      "UID:series@partner.test",
      "DTSTAMP:20260501T000000Z",
      `RECURRENCE-ID:202606${day}T070000Z`,
      `DTSTART:202606${day}T080000Z`,
      `DTEND:202606${day}T090000Z`,
      "SUMMARY:Partner sync",
      "END:VEVENT",
    ];
    const two = calendarText(...date("02"), ...date("09"));
    const [, second] = await listed(two);
    const left = cancelOccurrenceIcs(two, "series@partner.test", second!)!;
    expect((await listed(left)).map((entry) => entry.startAt)).toEqual(["2026-06-02T08:00:00.000Z"]);
    expect(cancelOccurrenceIcs(left, "series@partner.test", (await listed(left))[0]!)).toBe("");
  });

  it("answers null for an event that does not repeat, or another UID", () => {
    const single = calendarText("BEGIN:VEVENT", "UID:one@sage.test", "DTSTAMP:20260501T000000Z", "DTSTART:20260602T070000Z", "SUMMARY:Once", "END:VEVENT");
    const occurrence = { recurrenceId: "2026-06-02T07:00:00.000Z", timeZone: "Europe/Prague" };
    expect(cancelOccurrenceIcs(single, "one@sage.test", occurrence)).toBeNull();
    expect(cancelOccurrenceIcs(series("a@sage.test", "DTSTART:20260602T070000Z", "DTEND:20260602T071500Z"), "b@sage.test", occurrence)).toBeNull();
  });
});
