import { describe, expect, it } from "vitest";
import type { Reminder } from "./api/get-reminders";
import { alertKey, msUntilNextDue, remindersFallenDue } from "./due-alerts";
import { parseDueDate } from "./due-date";

const reminder = (id: number, dueDate: string, createdAt = "2026-06-10T08:00:00.000Z"): Reminder => ({
  id,
  title: `R${id}`,
  description: "",
  dueDate,
  due: parseDueDate(dueDate),
  priority: "medium",
  type: "reminder",
  status: "unread",
  conversationId: null,
  createdAt,
  updatedAt: createdAt,
});

describe("which reminders to announce", () => {
  const openedAt = new Date("2026-06-10T09:00:00.000Z");
  const now = new Date("2026-06-10T10:00:00.000Z");

  it("announces what fell due while the app was open, not what was already due or is still ahead", () => {
    const list = [reminder(1, "2026-06-10T09:30:00.000Z"), reminder(2, "2026-06-10T08:30:00.000Z"), reminder(3, "2026-06-10T10:30:00.000Z")];
    expect(remindersFallenDue(list, { now, openedAt, announced: new Set() }).map((item) => item.id)).toEqual([1]);
  });

  it("announces once per due date: an announced reminder is skipped until it is rescheduled", () => {
    const due = reminder(1, "2026-06-10T09:30:00.000Z");
    expect(remindersFallenDue([due], { now, openedAt, announced: new Set([alertKey(due)]) })).toEqual([]);
    const rescheduled = reminder(1, "2026-06-10T09:45:00.000Z");
    expect(remindersFallenDue([rescheduled], { now, openedAt, announced: new Set([alertKey(due)]) })).toEqual([rescheduled]);
  });

  it("does not announce a reminder created with a due time already past", () => {
    const late = reminder(1, "2026-06-10T09:30:00.000Z", "2026-06-10T09:50:00.000Z");
    expect(remindersFallenDue([late], { now, openedAt, announced: new Set() })).toEqual([]);
  });

  it("plans the next check for the nearest future due time", () => {
    const list = [reminder(1, "2026-06-10T09:30:00.000Z"), reminder(2, "2026-06-10T10:05:00.000Z"), reminder(3, "2026-06-10T11:00:00.000Z")];
    expect(msUntilNextDue(list, now)).toBe(5 * 60_000);
    expect(msUntilNextDue([list[0]!], now)).toBeUndefined();
  });
});
