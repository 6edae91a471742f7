import { describe, expect, it } from "vitest";
import { formatRunTime, toRule } from "./recurrence-rule";

describe("the recurrence editor's rule", () => {
  const now = new Date("2026-11-27T23:30:00Z"); // already Saturday the 28th in Zurich
  it("starts today in the chosen zone, at the chosen time", () => {
    expect(toRule({ repeat: "weekdays", days: [], time: "07:00", timezone: "Europe/Zurich" }, now)).toBe(
      "DTSTART;TZID=Europe/Zurich:20261128T070000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    );
    expect(toRule({ repeat: "daily", days: [], time: "18:30", timezone: "America/New_York" }, now)).toBe(
      "DTSTART;TZID=America/New_York:20261127T183000\nRRULE:FREQ=DAILY",
    );
  });
  it("lists weekly days in week order, whatever order they were ticked in", () => {
    expect(toRule({ repeat: "weekly", days: ["FR", "MO"], time: "09:05", timezone: "Europe/Zurich" }, now)).toBe(
      "DTSTART;TZID=Europe/Zurich:20261128T090500\nRRULE:FREQ=WEEKLY;BYDAY=MO,FR",
    );
  });
  it("shows a run time in the schedule's zone", () => {
    expect(formatRunTime("2026-11-30T06:00:00.000Z", "Europe/Zurich")).toBe("Mon, 30 Nov 2026, 07:00");
  });
});
