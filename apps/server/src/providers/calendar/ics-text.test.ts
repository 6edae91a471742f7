import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { escapeIcsText, foldIcsLine, icsUtc } from "./ics-text.ts";

/** A one-event calendar whose SUMMARY is this text, as SAGE writes it. */
const calendarWith = (summary: string) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//EN",
    "BEGIN:VEVENT",
    "UID:1",
    "DTSTAMP:20261128T090000Z",
    `SUMMARY:${escapeIcsText(summary)}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ]
    .map(foldIcsLine)
    .join("\r\n");

describe("ICS text (ical.js)", () => {
  it("a title with commas, semicolons, backslashes and line breaks reads back as it was written", () => {
    const title = "Board: Q3; budget, hiring\\plan\r\nsecond line\nthird";
    const event = new ICAL.Component(ICAL.parse(calendarWith(title))).getFirstSubcomponent("vevent")!;
    expect(event.getFirstPropertyValue("summary")).toBe("Board: Q3; budget, hiring\\plan\nsecond line\nthird");
  });

  it("folds a long line within 75 octets a line, never inside a character, and unfolds to the same text", () => {
    const title = `Réunion 😀 ${"ü".repeat(60)} ${"x".repeat(120)}`;
    const text = calendarWith(title);
    const lines = text.split("\r\n");
    expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75);
    expect(lines.filter((line) => line.startsWith(" ")).length).toBeGreaterThan(2);
    expect(text).not.toContain("\uFFFD");
    expect(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!.getFirstPropertyValue("summary")).toBe(title);
  });

  it("writes UTC times without milliseconds", () => {
    expect(icsUtc("2026-11-28T09:00:00.123Z")).toBe("20261128T090000Z");
    expect(icsUtc(new Date("2026-11-28T09:00:00+01:00"))).toBe("20261128T080000Z");
  });
});
