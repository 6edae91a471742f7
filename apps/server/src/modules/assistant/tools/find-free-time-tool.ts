import { formatZoned } from "../../../providers/calendar/zoned-time.ts";
import type { CalendarPort } from "../../accounts/accounts.module.ts";
import type { AssistantTool } from "./assistant-tool.ts";
import { CALENDAR_TEXTS, readRange, tooLong } from "./calendar-tool-args.ts";
import { freeSlots } from "./free-slots.ts";

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const SLOTS = 10;

/** findFreeTime: free stretches in working hours between the user's meetings; read-only. */
export function findFreeTimeTool(calendar: CalendarPort, now: () => number = Date.now): AssistantTool {
  return {
    name: "findFreeTime",
    description:
      "Find free time of a given length in the user's calendars, within working hours (default 09:00-17:00 on weekdays, in the user's time zone), " +
      "between from and to (default: the next 7 days). Answers up to 10 free stretches, earliest first.",
    parameters: {
      type: "object",
      properties: {
        durationMinutes: { type: "integer", description: "How long the free time must be, in minutes" },
        from: { type: "string", description: "Start: YYYY-MM-DD or YYYY-MM-DDTHH:MM in the user's time zone; default now" },
        to: { type: "string", description: "End: YYYY-MM-DD (that whole day included) or YYYY-MM-DDTHH:MM; default 7 days after from" },
        workingHoursStart: { type: "string", description: "Start of the working day, HH:MM; default 09:00" },
        workingHoursEnd: { type: "string", description: "End of the working day, HH:MM; default 17:00" },
        includeWeekends: { type: "boolean", description: "Also look on Saturdays and Sundays; default false" },
      },
      required: ["durationMinutes"],
    },
    readOnly: true,
    async run(args, context) {
      const duration = Number(args.durationMinutes);
      if (!Number.isInteger(duration) || duration < 5 || duration > 720) return { result: { slots: [], message: CALENDAR_TEXTS.badDuration } };
      const dayStart = typeof args.workingHoursStart === "string" && args.workingHoursStart ? args.workingHoursStart : "09:00";
      const dayEnd = typeof args.workingHoursEnd === "string" && args.workingHoursEnd ? args.workingHoursEnd : "17:00";
      if (!CLOCK.test(dayStart) || !CLOCK.test(dayEnd) || dayEnd <= dayStart) return { result: { slots: [], message: CALENDAR_TEXTS.badHours } };
      const timeZone = await calendar.timeZone(context.userId);
      const range = readRange(args, timeZone, now(), 7);
      if (!range) return { result: { slots: [], message: CALENDAR_TEXTS.badRange } };
      if (tooLong(range)) return { result: { slots: [], message: CALENDAR_TEXTS.tooLong } };
      const from = Math.max(range.from, now());
      const events = await calendar.list(context.userId, new Date(from).toISOString(), new Date(range.to).toISOString(), 5000);
      const slots = freeSlots({
        from,
        to: range.to,
        durationMs: duration * 60_000,
        busy: events.filter((event) => event.busy).map((event) => ({ start: Date.parse(event.start), end: Date.parse(event.end) })),
        timeZone,
        dayStart,
        dayEnd,
        weekends: args.includeWeekends === true,
        limit: SLOTS,
      });
      if (slots.length === 0) return { result: { timeZone, slots: [], message: CALENDAR_TEXTS.noFreeTime } };
      return { result: { timeZone, slots: slots.map((slot) => ({ start: formatZoned(slot.start, timeZone), end: formatZoned(slot.end, timeZone) })) } };
    },
  };
}
