import { formatZoned, parseZoned } from "../../../providers/calendar/zoned-time.ts";
import type { AgendaEvent } from "../../accounts/accounts.module.ts";

export const CALENDAR_TEXTS = {
  badRange: "from and to must be dates (YYYY-MM-DD) or date-times (2026-12-01T10:00, read in the user's time zone), with from before to.",
  tooLong: "Ask for at most 92 days at a time.",
  noEvents: "No events in that time.",
  badTimes: "start and end must be date-times (2026-12-01T10:00, read in the user's time zone), with start before end.",
  noTitle: "Give the event a title.",
  badAddress: (address: string) => `"${address}" is not an e-mail address.`,
  badDuration: "durationMinutes must be a whole number of minutes from 5 to 720.",
  badHours: "Working hours must be times like 09:00 and 17:00, the start before the end.",
  noFreeTime: "No free time of that length in working hours in that range.",
  declined: "The user declined: the calendar was not changed.",
  timedOut: "The user did not answer in time, so the calendar was not changed.",
} as const;

const DAY_MS = 86_400_000;
const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** from/to from the model: defaults (now, and a week on), read in the user's zone; null when unreadable. */
export function readRange(args: Record<string, unknown>, timeZone: string, now: number, defaultDays: number): { from: number; to: number } | null {
  const from = args.from === undefined || args.from === null || args.from === "" ? now : parseZoned(args.from, timeZone);
  const to =
    args.to === undefined || args.to === null || args.to === "" ? (from ?? now) + defaultDays * DAY_MS : parseZoned(args.to, timeZone, { endOfDay: true });
  if (from === null || to === null || to <= from) return null;
  return { from, to };
}

export const tooLong = (range: { from: number; to: number }) => range.to - range.from > 92 * DAY_MS;

/** An event as the model reads it: times in the user's zone with their offset. */
export const eventView = (event: AgendaEvent, timeZone: string) => ({
  id: event.id,
  title: event.title,
  start: event.allDay ? formatZoned(Date.parse(event.start), timeZone).slice(0, 10) : formatZoned(Date.parse(event.start), timeZone),
  end: event.allDay ? formatZoned(Date.parse(event.end) - 1, timeZone).slice(0, 10) : formatZoned(Date.parse(event.end), timeZone),
  ...(event.allDay ? { allDay: true } : {}),
  ...(event.location ? { location: event.location } : {}),
  ...(event.description ? { description: event.description } : {}),
  ...(event.attendees.length > 0 ? { attendees: event.attendees } : {}),
  ...(event.recurring ? { recurring: true } : {}),
  calendar: event.calendar,
});

/** Addresses from a list or a comma-separated text; "Anna <anna@x.com>" keeps its address. */
export function addresses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,;]/) : [];
  return list
    .filter((entry): entry is string => typeof entry === "string")
    .map((entry) => (/<([^>]+)>/.exec(entry)?.[1] ?? entry).trim())
    .filter(Boolean);
}

/** title, start, end, attendees, location checked: the card's arguments (times shown in the user's zone), or why not. */
export function readEventFields(
  args: Record<string, unknown>,
  timeZone: string,
): { refusal: string } | { fields: { title: string; start: number; end: number; attendees: string[]; location: string } } {
  const title = typeof args.title === "string" ? args.title.trim().slice(0, 500) : "";
  if (!title) return { refusal: CALENDAR_TEXTS.noTitle };
  const start = parseZoned(args.start, timeZone);
  const end = parseZoned(args.end, timeZone);
  if (start === null || end === null || end <= start || end - start > 31 * DAY_MS) return { refusal: CALENDAR_TEXTS.badTimes };
  const attendees = addresses(args.attendees);
  const bad = attendees.find((address) => !ADDRESS.test(address));
  if (bad) return { refusal: CALENDAR_TEXTS.badAddress(bad) };
  const location = typeof args.location === "string" ? args.location.trim().slice(0, 500) : "";
  return { fields: { title, start, end, attendees, location } };
}

/** What the card shows and the run writes: every field, times in the user's zone with their offset. */
export const cardArgs = (calendar: string, fields: { title: string; start: number; end: number; attendees: string[]; location: string }, timeZone: string) => ({
  calendar,
  title: fields.title,
  start: formatZoned(fields.start, timeZone),
  end: formatZoned(fields.end, timeZone),
  timeZone,
  attendees: fields.attendees,
  location: fields.location,
});

/** The approved card's arguments back as an event to write. */
export const fromCard = (args: Record<string, unknown>) => ({
  title: String(args.title),
  start: new Date(String(args.start)),
  end: new Date(String(args.end)),
  attendees: (args.attendees as string[]) ?? [],
  location: String(args.location ?? ""),
});
