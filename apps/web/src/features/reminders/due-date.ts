import { endOfDay, format, parseISO } from "date-fns";

/** A reminder's due date as the client reads it: a whole day (the assistant's YYYY-MM-DD) or an instant. */
export interface DueDate {
  /** The instant it falls due: local midnight for a whole day. */
  date: Date;
  allDay: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD is read in the user's own time zone (parseISO does that; `new Date()` would read UTC). */
export function parseDueDate(value: string): DueDate {
  return { date: parseISO(value), allDay: DATE_ONLY.test(value) };
}

/** The form the server expects: year-month-day with time, milliseconds and zone offset, e.g. 2025-03-05T09:00:00.000+01:00. */
export function toOffsetIso(date: Date): string {
  return format(date, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx");
}

/** A whole-day reminder stays current until its day ends. */
export function lastMomentOf(due: DueDate): Date {
  return due.allDay ? endOfDay(due.date) : due.date;
}

/** The picked day at the given "HH:mm" in local time. */
export function combineDayAndTime(day: Date, time: string): Date {
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes, 0, 0);
}
