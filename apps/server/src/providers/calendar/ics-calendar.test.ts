import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { buildEventIcs, updateEventIcs } from "./event-ics.ts";
import { graphEventIcs } from "./graph-calendar.ts";

const eventOf = (text: string) => new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
const start = new Date("2026-11-28T09:00:00.123Z");
const end = new Date("2026-11-28T10:00:00Z");

describe("calendar objects SAGE writes (ical.js components)", () => {
  it("a new event reads back with its fields; text with commas, semicolons, backslashes and line breaks survives", () => {
    const title = "Board: Q3; budget, hiring\\plan\r\nsecond line\nthird";
    const text = buildEventIcs(
      {
        uid: "evt-1@sage",
        title,
        start,
        end,
        location: "Room 4, floor 2",
        description: "Bring\r\nslides",
        organizer: "me@example.com",
        attendees: ["anna@example.com", "bo@example.com"],
      },
      new Date("2026-11-20T08:00:00Z"),
    );
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(
      text
        .split("\r\n")
        .filter((line) => line && !line.startsWith(" "))
        .every((line) => /^[A-Z-]+[;:]/.test(line)),
    ).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//SAGE//Calendar//EN");
    const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
    expect(event.uid).toBe("evt-1@sage");
    expect(event.summary).toBe("Board: Q3; budget, hiring\\plan\nsecond line\nthird");
    expect(event.location).toBe("Room 4, floor 2");
    expect(event.description).toBe("Bring\nslides");
    expect(event.startDate.toString()).toBe("2026-11-28T09:00:00Z");
    expect(event.endDate.toJSDate().toISOString()).toBe(end.toISOString());
    expect(String(event.component.getFirstPropertyValue("dtstamp"))).toBe("2026-11-20T08:00:00Z");
    expect(event.organizer).toBe("mailto:me@example.com");
    expect(event.attendees.map((attendee) => [attendee.getFirstValue(), attendee.getParameter("partstat"), attendee.getParameter("rsvp")])).toEqual([
      ["mailto:anna@example.com", "NEEDS-ACTION", "TRUE"],
      ["mailto:bo@example.com", "NEEDS-ACTION", "TRUE"],
    ]);
  });

  it("has no ORGANIZER without attendees, and no line break can reach a UID or an address", () => {
    const text = buildEventIcs({ uid: "a\r\nb", title: "Solo", start, end, organizer: "me@example.com", attendees: [] });
    const event = eventOf(text);
    expect(event.hasProperty("organizer")).toBe(false);
    expect(event.getFirstPropertyValue("uid")).toBe("a b");
  });

  it("folds long lines within 75 octets, never inside a character, and unfolds to the same text", () => {
    const title = `Réunion 😀 ${"ü".repeat(60)} ${"x".repeat(120)}`;
    const text = buildEventIcs({ uid: "long", title, start, end });
    const lines = text.split("\r\n");
    expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75);
    expect(lines.filter((line) => line.startsWith(" ")).length).toBeGreaterThan(2);
    expect(text).not.toContain("\uFFFD");
    expect(eventOf(text).getFirstPropertyValue("summary")).toBe(title);
  });

  it("an update replaces times, title, place and attendees, keeps what else was there, and raises SEQUENCE", () => {
    const original = buildEventIcs({
      uid: "evt-2",
      title: "Old",
      start,
      end,
      description: "Agenda; kept",
      attendees: ["anna@example.com"],
      organizer: "me@example.com",
    });
    const updated = updateEventIcs(original, "evt-2", {
      title: "New, later",
      start: new Date("2026-11-29T09:00:00Z"),
      end: new Date("2026-11-29T09:30:00Z"),
      attendees: ["bo@example.com"],
    })!;
    const event = new ICAL.Event(eventOf(updated));
    expect(event.summary).toBe("New, later");
    expect(event.description).toBe("Agenda; kept");
    expect(event.startDate.toString()).toBe("2026-11-29T09:00:00Z");
    expect(event.attendees.map((attendee) => attendee.getFirstValue())).toEqual(["mailto:bo@example.com"]);
    expect(event.sequence).toBe(1);
    expect(updateEventIcs(updated, "other", { title: "x", start, end })).toBeNull();
  });

  it("a Microsoft Graph occurrence becomes one event of its series: all-day dates, RECURRENCE-ID, free time, cancellation", () => {
    const text = graphEventIcs({
      id: "occ-1",
      seriesMasterId: "series-1",
      type: "occurrence",
      subject: "Offsite, day 1",
      isAllDay: true,
      start: { dateTime: "2026-12-01T00:00:00.0000000", timeZone: "UTC" },
      end: { dateTime: "2026-12-02T00:00:00.0000000", timeZone: "UTC" },
      originalStart: "2026-12-01T00:00:00Z",
      showAs: "free",
      isCancelled: true,
      organizer: { emailAddress: { address: "boss@example.com" } },
      attendees: [{ emailAddress: { address: "me@example.com" } }, { emailAddress: {} }],
    } as Parameters<typeof graphEventIcs>[0]);
    const event = eventOf(text);
    expect(text).toContain("DTSTART;VALUE=DATE:20261201\r\n");
    expect(text).toContain("RECURRENCE-ID;VALUE=DATE:20261201\r\n");
    expect(event.getFirstPropertyValue("uid")).toBe("series-1");
    expect(String(event.getFirstPropertyValue("dtend"))).toBe("2026-12-02");
    expect(event.getFirstPropertyValue("summary")).toBe("Offsite, day 1");
    expect(event.getFirstPropertyValue("transp")).toBe("TRANSPARENT");
    expect(event.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(event.getAllProperties("attendee").map((attendee) => attendee.getFirstValue())).toEqual(["mailto:me@example.com"]);
  });
});
