import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { REMINDERS_FEED_NAME } from "@sage/contracts/calendar";
import type { Reminder } from "@sage/contracts/reminders";
import { remindersIcs } from "./reminders-ics.ts";

const reminder = (fields: Partial<Reminder>): Reminder => ({
  id: 1,
  title: "Call Anna",
  description: "",
  dueDate: "2026-12-02",
  priority: "high",
  type: "reminder",
  status: "pending",
  conversationId: null,
  createdAt: "2026-11-20T08:00:00.000Z",
  updatedAt: "2026-11-20T08:00:00.000Z",
  ...fields,
});

describe("the reminders feed (ical.js)", () => {
  it("writes a timed reminder as a 15-minute event with an alarm, and a dated one as an all-day free event", () => {
    const text = remindersIcs(
      [
        reminder({ id: 7, title: "Call Anna, re: budget", dueDate: "2026-12-02T13:30:00.000Z", priority: "high" }),
        reminder({ id: 8, title: "Board pack", dueDate: "2026-12-31", description: "Slides; numbers\nand notes", priority: "low", type: "task" }),
      ],
      "sage.example",
      new Date("2026-12-01T00:00:00Z"),
    );
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe(REMINDERS_FEED_NAME);
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n");
    const [timed, allDay] = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
    expect(timed!.uid).toBe("reminder-7@sage.example");
    expect(timed!.summary).toBe("Call Anna, re: budget");
    expect(timed!.startDate.toJSDate().toISOString()).toBe("2026-12-02T13:30:00.000Z");
    expect(timed!.endDate.toJSDate().toISOString()).toBe("2026-12-02T13:45:00.000Z");
    expect(timed!.component.getFirstPropertyValue("priority")).toBe(1);
    const alarm = timed!.component.getFirstSubcomponent("valarm")!;
    expect(alarm.getFirstPropertyValue("action")).toBe("DISPLAY");
    expect(String(alarm.getFirstPropertyValue("trigger"))).toBe("PT0S");
    expect(allDay!.startDate.isDate).toBe(true);
    expect(allDay!.startDate.toString()).toBe("2026-12-31");
    expect(allDay!.endDate.toString()).toBe("2027-01-01");
    expect(allDay!.description).toBe("Slides; numbers\nand notes");
    expect(allDay!.component.getFirstPropertyValue("transp")).toBe("TRANSPARENT");
    expect(allDay!.component.getFirstPropertyValue("categories")).toBe("task");
    expect(allDay!.component.getFirstSubcomponent("valarm")).toBeNull();
  });
});
