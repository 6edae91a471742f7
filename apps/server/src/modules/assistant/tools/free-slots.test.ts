import { describe, expect, it } from "vitest";
import { freeSlots } from "./free-slots.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (slots: Array<{ start: number; end: number }>) => slots.map((slot) => [new Date(slot.start).toISOString(), new Date(slot.end).toISOString()]);
const base = { durationMs: 30 * 60_000, timeZone: "Europe/Prague", dayStart: "09:00", dayEnd: "17:00", weekends: false, limit: 10 };

describe("free time between meetings", () => {
  it("finds the gaps in working hours around overlapping meetings, in the user's zone", () => {
    const slots = freeSlots({
      ...base,
      from: at("2026-12-01T00:00:00Z"),
      to: at("2026-12-01T23:00:00Z"),
      busy: [
        { start: at("2026-12-01T09:00:00Z"), end: at("2026-12-01T10:00:00Z") }, // 10:00-11:00 Prague
        { start: at("2026-12-01T09:30:00Z"), end: at("2026-12-01T11:15:00Z") }, // overlaps, to 12:15
        { start: at("2026-12-01T11:30:00Z"), end: at("2026-12-01T15:50:00Z") }, // 12:30-16:50
      ],
    });
    expect(iso(slots)).toEqual([["2026-12-01T08:00:00.000Z", "2026-12-01T09:00:00.000Z"]]);
    // 12:15-12:30 and 16:50-17:00 are shorter than 30 minutes.
  });

  it("skips the weekend unless asked, and moves working hours with the clocks", () => {
    const weekend = { ...base, from: at("2027-03-27T00:00:00Z"), to: at("2027-03-30T00:00:00Z"), busy: [] };
    // Saturday 27th and Sunday 28th (the change) skipped; Monday 29th 09:00-17:00 summer time is 07:00-15:00 UTC.
    expect(iso(freeSlots(weekend))).toEqual([["2027-03-29T07:00:00.000Z", "2027-03-29T15:00:00.000Z"]]);
    expect(iso(freeSlots({ ...weekend, weekends: true }))[0]).toEqual(["2027-03-27T08:00:00.000Z", "2027-03-27T16:00:00.000Z"]);
  });

  it("never offers time before the search starts", () => {
    const slots = freeSlots({ ...base, from: at("2026-12-01T13:10:00Z"), to: at("2026-12-01T20:00:00Z"), busy: [] });
    expect(iso(slots)).toEqual([["2026-12-01T13:10:00.000Z", "2026-12-01T16:00:00.000Z"]]);
  });
});
