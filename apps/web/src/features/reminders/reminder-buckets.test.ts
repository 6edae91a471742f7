import { describe, expect, it } from "vitest";
import { parseDueDate, toOffsetIso } from "./due-date";
import { bucketReminders, bucketsOf, sortReminders, type Bucketable } from "./reminder-buckets";

// A zone with DST, so local-day arithmetic is tested where days are 23 or 25 hours long.
// Set before any Date is made (describe bodies run at collection, before hooks).
process.env.TZ = "America/New_York";

/** Local wall-clock time in the test zone. */
const local = (year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0, ms = 0) =>
  new Date(year, month - 1, day, hours, minutes, seconds, ms);

const at = (date: Date) => parseDueDate(date.toISOString());
const bucketNames = (due: ReturnType<typeof parseDueDate>, now: Date) => [...bucketsOf(due, now)].sort();

describe("bucketing with a fixed clock (local time)", () => {
  // Wednesday 2026-06-10 14:00.
  const now = local(2026, 6, 10, 14, 0);

  it("23:59 today is Today and not yet overdue; 00:00 tomorrow is This Week", () => {
    expect(bucketNames(at(local(2026, 6, 10, 23, 59)), now)).toEqual(["today"]);
    expect(bucketNames(at(local(2026, 6, 11, 0, 0)), now)).toEqual(["week"]);
  });

  it("earlier today is both Today and Overdue (the rules do not exclude each other); yesterday is only Overdue", () => {
    expect(bucketNames(at(local(2026, 6, 10, 9, 0)), now)).toEqual(["overdue", "today"]);
    expect(bucketNames(at(local(2026, 6, 9, 23, 59)), now)).toEqual(["overdue"]);
  });

  it("a whole-day date (the assistant's YYYY-MM-DD) is Today all day and overdue only once its day is over", () => {
    expect(bucketNames(parseDueDate("2026-06-10"), now)).toEqual(["today"]);
    expect(bucketNames(parseDueDate("2026-06-10"), local(2026, 6, 10, 23, 59, 59, 999))).toEqual(["today"]);
    expect(bucketNames(parseDueDate("2026-06-10"), local(2026, 6, 11, 0, 0))).toEqual(["overdue"]);
    expect(bucketNames(parseDueDate("2026-06-12"), now)).toEqual(["week"]);
  });

  it("the week runs Sunday to Saturday: Saturday is This Week, next Sunday is This Month", () => {
    expect(bucketNames(at(local(2026, 6, 13, 23, 59)), now)).toEqual(["week"]);
    expect(bucketNames(at(local(2026, 6, 14, 0, 0)), now)).toEqual(["month"]);
  });

  it("the last moment of the month is This Month; the first of next month is in no tab", () => {
    expect(bucketNames(at(local(2026, 6, 30, 23, 59)), now)).toEqual(["month"]);
    expect(bucketNames(at(local(2026, 7, 1, 0, 0)), now)).toEqual([]);
  });

  it("on the last day of a month, tomorrow is This Week but not This Month", () => {
    // Tuesday 2026-06-30; Wednesday 2026-07-01 is in the same week but another month.
    const lastDay = local(2026, 6, 30, 10, 0);
    expect(bucketNames(at(local(2026, 7, 1, 9, 0)), lastDay)).toEqual(["week"]);
    expect(bucketNames(at(local(2026, 6, 30, 23, 59)), lastDay)).toEqual(["today"]);
    expect(bucketNames(at(local(2026, 6, 29, 23, 0)), lastDay)).toEqual(["overdue"]);
  });

  it("a week crossing the year end: from Tue 2025-12-30, Sat 2026-01-03 is This Week, Sun 2026-01-04 is nowhere", () => {
    const yearEnd = local(2025, 12, 30, 12, 0);
    expect(bucketNames(at(local(2025, 12, 31, 23, 59)), yearEnd)).toEqual(["week"]);
    expect(bucketNames(at(local(2026, 1, 1, 0, 0)), yearEnd)).toEqual(["week"]);
    expect(bucketNames(at(local(2026, 1, 3, 18, 0)), yearEnd)).toEqual(["week"]);
    expect(bucketNames(at(local(2026, 1, 4, 9, 0)), yearEnd)).toEqual([]);
    // Seen from the new year, the old year's last days are overdue, not This Week.
    expect(bucketNames(at(local(2025, 12, 31, 9, 0)), local(2026, 1, 2, 9, 0))).toEqual(["overdue"]);
  });

  it("across the spring DST change (2026-03-08, a 23-hour day), days stay local days", () => {
    const dstDay = local(2026, 3, 8, 12, 0);
    expect(bucketNames(at(local(2026, 3, 8, 0, 30)), dstDay)).toEqual(["overdue", "today"]);
    expect(bucketNames(at(local(2026, 3, 8, 23, 30)), dstDay)).toEqual(["today"]);
    expect(bucketNames(at(local(2026, 3, 9, 0, 0)), dstDay)).toEqual(["week"]);
    expect(bucketNames(parseDueDate("2026-03-08"), local(2026, 3, 8, 23, 59))).toEqual(["today"]);
  });

  it("across the autumn DST change (2026-11-01, a 25-hour day), 23:30 is still today", () => {
    const dstDay = local(2026, 11, 1, 1, 30);
    expect(bucketNames(at(local(2026, 11, 1, 23, 30)), dstDay)).toEqual(["today"]);
    expect(bucketNames(at(local(2026, 11, 2, 0, 0)), dstDay)).toEqual(["week"]);
  });
});

describe("sorting", () => {
  const now = local(2026, 6, 10, 14, 0);
  const reminder = (name: string, due: Date, priority: Bucketable["priority"]) => ({ name, due: at(due), priority });

  it("nearest due date first by absolute distance to now, past or future", () => {
    const sorted = sortReminders(
      [
        reminder("in 3h", local(2026, 6, 10, 17, 0), "low"),
        reminder("2h ago", local(2026, 6, 10, 12, 0), "low"),
        reminder("in 1h", local(2026, 6, 10, 15, 0), "low"),
        reminder("in 2 days", local(2026, 6, 12, 14, 0), "high"),
      ],
      now,
    );
    expect(sorted.map((item) => item.name)).toEqual(["in 1h", "2h ago", "in 3h", "in 2 days"]);
  });

  it("ties go high, medium, low (also for equal distances before and after now)", () => {
    const sorted = sortReminders(
      [
        reminder("low", local(2026, 6, 10, 16, 0), "low"),
        reminder("medium, 2h ago", local(2026, 6, 10, 12, 0), "medium"),
        reminder("high", local(2026, 6, 10, 16, 0), "high"),
      ],
      now,
    );
    expect(sorted.map((item) => item.name)).toEqual(["high", "medium, 2h ago", "low"]);
  });

  it("bucketReminders sorts each tab and counts a reminder due earlier today in Today and Overdue", () => {
    const buckets = bucketReminders(
      [
        reminder("tonight", local(2026, 6, 10, 22, 0), "low"),
        reminder("this morning", local(2026, 6, 10, 9, 0), "medium"),
        reminder("friday", local(2026, 6, 12, 9, 0), "high"),
        reminder("the 20th", local(2026, 6, 20, 9, 0), "high"),
        reminder("last week", local(2026, 6, 3, 9, 0), "high"),
        reminder("next month", local(2026, 7, 2, 9, 0), "high"),
      ],
      now,
    );
    const names = (list: { name: string }[]) => list.map((item) => item.name);
    expect(names(buckets.today)).toEqual(["this morning", "tonight"]);
    expect(names(buckets.overdue)).toEqual(["this morning", "last week"]);
    expect(names(buckets.week)).toEqual(["friday"]);
    expect(names(buckets.month)).toEqual(["the 20th"]);
  });
});

describe("due date formats", () => {
  it("sends year-month-day with time, milliseconds and the local zone offset", () => {
    expect(toOffsetIso(local(2026, 1, 15, 9, 5, 0, 0))).toBe("2026-01-15T09:05:00.000-05:00");
    expect(toOffsetIso(local(2026, 7, 15, 9, 5, 0, 0))).toBe("2026-07-15T09:05:00.000-04:00");
  });

  it("reads YYYY-MM-DD as local midnight of that day, not UTC", () => {
    const due = parseDueDate("2026-12-31");
    expect(due.allDay).toBe(true);
    expect(due.date.getTime()).toBe(local(2026, 12, 31).getTime());
  });
});
