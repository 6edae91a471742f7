import { describe, expect, it } from "vitest";
import { SCHEDULE_ERRORS } from "@sage/contracts/schedules";
import { describeRecurrence, latestOccurrence, nextOccurrences, parseRecurrence } from "./recurrence.ts";

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());
const DAILY_7_ZURICH = "DTSTART;TZID=Europe/Zurich:20260301T070000\nRRULE:FREQ=DAILY";

describe("recurrence", () => {
  it("keeps 07:00 Europe/Zurich at 07:00 local: 05:00 UTC in summer, 06:00 UTC in winter", () => {
    const daily = parseRecurrence(DAILY_7_ZURICH, "Europe/Zurich");
    expect(iso(nextOccurrences(daily, new Date("2026-07-15T12:00:00Z"), 2))).toEqual(["2026-07-16T05:00:00.000Z", "2026-07-17T05:00:00.000Z"]);
    expect(iso(nextOccurrences(daily, new Date("2026-12-15T12:00:00Z"), 1))).toEqual(["2026-12-16T06:00:00.000Z"]);
    // Across the autumn change (25 October 2026) and the spring change (28 March 2027).
    expect(iso(nextOccurrences(daily, new Date("2026-10-24T12:00:00Z"), 2))).toEqual(["2026-10-25T06:00:00.000Z", "2026-10-26T06:00:00.000Z"]);
    expect(iso(nextOccurrences(daily, new Date("2027-03-27T12:00:00Z"), 2))).toEqual(["2027-03-28T05:00:00.000Z", "2027-03-29T05:00:00.000Z"]);
  });

  it("runs weekdays only, and a time the clocks skip runs an hour later that night", () => {
    const weekdays = parseRecurrence("DTSTART;TZID=Europe/Zurich:20261127T070000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Europe/Zurich");
    // Friday 27 November 2026, 08:00 local: next are Monday, Tuesday, Wednesday.
    expect(iso(nextOccurrences(weekdays, new Date("2026-11-27T07:00:00Z"), 3))).toEqual([
      "2026-11-30T06:00:00.000Z",
      "2026-12-01T06:00:00.000Z",
      "2026-12-02T06:00:00.000Z",
    ]);
    const skipped = parseRecurrence("DTSTART;TZID=Europe/Zurich:20270301T023000\nRRULE:FREQ=DAILY", "Europe/Zurich");
    expect(iso(nextOccurrences(skipped, new Date("2027-03-27T12:00:00Z"), 2))).toEqual(["2027-03-28T01:30:00.000Z", "2027-03-29T00:30:00.000Z"]);
  });

  it("finds the latest missed occurrence only", () => {
    const daily = parseRecurrence(DAILY_7_ZURICH, "Europe/Zurich");
    const latest = latestOccurrence(daily, new Date("2026-07-10T00:00:00Z"), new Date("2026-07-15T12:00:00Z"));
    expect(latest?.toISOString()).toBe("2026-07-15T05:00:00.000Z");
    expect(latestOccurrence(daily, new Date("2026-07-15T05:00:00Z"), new Date("2026-07-15T12:00:00Z"))).toBeNull();
  });

  it("says the rule in plain words", () => {
    expect(describeRecurrence(parseRecurrence("DTSTART;TZID=Europe/Zurich:20261127T070000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Europe/Zurich"))).toBe(
      "every weekday at 07:00 (Europe/Zurich)",
    );
    expect(describeRecurrence(parseRecurrence(DAILY_7_ZURICH, "Europe/Zurich"))).toBe("every day at 07:00 (Europe/Zurich)");
    expect(describeRecurrence(parseRecurrence("DTSTART:20261127T183000\nRRULE:FREQ=WEEKLY;BYDAY=MO,FR", "America/New_York"))).toBe(
      "every Monday and Friday at 18:30 (America/New_York)",
    );
  });

  it("refuses what it cannot read, in plain words", () => {
    const refusal = (text: string, zone = "Europe/Zurich") => {
      try {
        parseRecurrence(text, zone);
      } catch (error) {
        return [(error as { status: number }).status, (error as Error).message];
      }
      return null;
    };
    expect(refusal("RRULE:FREQ=DAILY")).toEqual([400, SCHEDULE_ERRORS.rruleNeedsStart]);
    expect(refusal("DTSTART:20261127T070000\nRRULE:FREQ=SOMETIMES")).toEqual([400, SCHEDULE_ERRORS.rruleInvalid]);
    expect(refusal("DTSTART:20261127T070000\nRRULE:FREQ=DAILY;COUNT=x")).toEqual([400, SCHEDULE_ERRORS.rruleInvalid]);
    expect(refusal("DTSTART:20261327T070000\nRRULE:FREQ=DAILY")).toEqual([400, SCHEDULE_ERRORS.rruleInvalid]);
    expect(refusal("DTSTART:20261127T070000\nRRULE:FREQ=SECONDLY")).toEqual([400, SCHEDULE_ERRORS.rruleTooOften]);
    expect(refusal(DAILY_7_ZURICH, "Mars/Olympus")).toEqual([400, SCHEDULE_ERRORS.timezoneInvalid("Mars/Olympus")]);
    expect(refusal(DAILY_7_ZURICH, "Europe/Paris")).toEqual([400, SCHEDULE_ERRORS.timezoneMismatch("Europe/Zurich", "Europe/Paris")]);
  });
});
