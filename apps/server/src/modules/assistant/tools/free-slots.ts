import { nextDay, wallTime, zonedToUtc } from "../../../providers/calendar/zoned-time.ts";

export interface FreeSlotRequest {
  /** UTC instants (ms) bounding the search. */
  from: number;
  to: number;
  durationMs: number;
  /** Busy intervals (UTC ms), in any order, overlapping or not. */
  busy: Array<{ start: number; end: number }>;
  timeZone: string;
  /** "09:00" and "17:00": each day's working hours in the zone. */
  dayStart: string;
  dayEnd: string;
  weekends: boolean;
  limit: number;
}

const clock = (value: string) => {
  const [hour, minute] = value.split(":").map(Number);
  return { hour: hour!, minute: minute! };
};

/**
 * The free stretches at least `durationMs` long inside each day's working hours (in the user's zone, so a
 * daylight-saving change moves them with the clock), between the busy intervals: earliest first.
 */
export function freeSlots(request: FreeSlotRequest): Array<{ start: number; end: number }> {
  const busy = [...request.busy].sort((a, b) => a.start - b.start);
  const slots: Array<{ start: number; end: number }> = [];
  const first = wallTime(request.from, request.timeZone);
  let day = { year: first.year, month: first.month, day: first.day };
  for (let guard = 0; guard < 400 && slots.length < request.limit; guard++, day = nextDay(day)) {
    const dayStartMs = zonedToUtc({ ...day, ...clock(request.dayStart), second: 0 }, request.timeZone);
    if (dayStartMs >= request.to) break;
    const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
    if (!request.weekends && (weekday === 0 || weekday === 6)) continue;
    let cursor = Math.max(dayStartMs, request.from);
    const end = Math.min(zonedToUtc({ ...day, ...clock(request.dayEnd), second: 0 }, request.timeZone), request.to);
    for (const interval of busy) {
      if (interval.end <= cursor || interval.start >= end) continue;
      if (interval.start - cursor >= request.durationMs) slots.push({ start: cursor, end: interval.start });
      cursor = Math.max(cursor, interval.end);
      if (slots.length >= request.limit) break;
    }
    if (slots.length < request.limit && end - cursor >= request.durationMs) slots.push({ start: cursor, end });
  }
  return slots.slice(0, request.limit);
}
