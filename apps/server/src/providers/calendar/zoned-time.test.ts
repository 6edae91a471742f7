import { describe, expect, it } from "vitest";
import { isTimeZone, wallTime, zonedToUtc } from "./zoned-time.ts";

const wall = (year: number, month: number, day: number, hour: number, minute = 0) => ({ year, month, day, hour, minute, second: 0 });

describe("wall-clock times in a named zone", () => {
  it("reads 10:00 in Prague as 09:00 UTC in winter and 08:00 UTC in summer", () => {
    expect(new Date(zonedToUtc(wall(2026, 1, 15, 10), "Europe/Prague")).toISOString()).toBe("2026-01-15T09:00:00.000Z");
    expect(new Date(zonedToUtc(wall(2026, 7, 15, 10), "Europe/Prague")).toISOString()).toBe("2026-07-15T08:00:00.000Z");
    expect(new Date(zonedToUtc(wall(2026, 11, 2, 9), "America/New_York")).toISOString()).toBe("2026-11-02T14:00:00.000Z");
  });

  it("moves a time skipped by the spring change forward, and takes the first of a repeated autumn hour", () => {
    // 2026-03-29 02:30 does not exist in Prague (02:00 -> 03:00).
    expect(new Date(zonedToUtc(wall(2026, 3, 29, 2, 30), "Europe/Prague")).toISOString()).toBe("2026-03-29T01:30:00.000Z");
    // 2026-10-25 02:30 happens twice; the first is in summer time (UTC+2).
    expect(new Date(zonedToUtc(wall(2026, 10, 25, 2, 30), "Europe/Prague")).toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("gives the wall reading back and knows real zone names", () => {
    expect(wallTime(Date.parse("2026-07-15T08:00:00Z"), "Europe/Prague")).toMatchObject({ hour: 10, day: 15 });
    expect(isTimeZone("Europe/Prague")).toBe(true);
    expect(isTimeZone("W. Europe Standard Time")).toBe(false);
  });
});

describe("times the model writes", () => {
  it("reads an offset as given, a local time and a day in the user's zone, and refuses the rest", async () => {
    const { parseZoned, formatZoned } = await import("./zoned-time.ts");
    expect(parseZoned("2026-12-01T10:00:00Z", "Europe/Prague")).toBe(Date.parse("2026-12-01T10:00:00Z"));
    expect(parseZoned("2026-12-01T10:00", "Europe/Prague")).toBe(Date.parse("2026-12-01T09:00:00Z"));
    expect(parseZoned("2026-07-01", "Europe/Prague")).toBe(Date.parse("2026-06-30T22:00:00Z"));
    expect(parseZoned("2026-07-01", "Europe/Prague", { endOfDay: true })).toBe(Date.parse("2026-07-01T22:00:00Z"));
    expect(parseZoned("next Tuesday", "Europe/Prague")).toBeNull();
    expect(formatZoned(Date.parse("2026-07-01T08:00:00Z"), "Europe/Prague")).toBe("2026-07-01T10:00:00+02:00");
    expect(formatZoned(Date.parse("2026-12-01T15:30:00Z"), "America/New_York")).toBe("2026-12-01T10:30:00-05:00");
  });
});
