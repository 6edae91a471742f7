/** The recurrence editor's choices: how often, on which days (weekly), at what time, in which zone. */
export type Repeat = "daily" | "weekdays" | "weekly";
export const WEEK_DAYS = [
  { code: "MO", label: "Monday" },
  { code: "TU", label: "Tuesday" },
  { code: "WE", label: "Wednesday" },
  { code: "TH", label: "Thursday" },
  { code: "FR", label: "Friday" },
  { code: "SA", label: "Saturday" },
  { code: "SU", label: "Sunday" },
] as const;

export interface RecurrenceChoice {
  repeat: Repeat;
  /** Day codes (MO..SU) for a weekly schedule. */
  days: string[];
  /** HH:MM, 24-hour. */
  time: string;
  timezone: string;
}

/** The browser's own time zone, the editor's default. */
export const browserTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Time zones the browser knows, for the picker (the browser's own first). */
export function knownTimezones(): string[] {
  const own = browserTimezone();
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [own, ...all.filter((zone) => zone !== own)];
}

/** Today's date in `timezone`, as YYYYMMDD. */
function dateIn(timezone: string, now: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}${parts.month}${parts.day}`;
}

/** The RFC 5545 rule the server takes: DTSTART in the zone (today, at the time), then the RRULE. */
export function toRule(choice: RecurrenceChoice, now = new Date()): string {
  const [hours = "07", minutes = "00"] = choice.time.split(":");
  const start = `DTSTART;TZID=${choice.timezone}:${dateIn(choice.timezone, now)}T${hours.padStart(2, "0")}${minutes.padStart(2, "0")}00`;
  const days = WEEK_DAYS.map((day) => day.code).filter((code) => choice.days.includes(code));
  const rule =
    choice.repeat === "daily"
      ? "RRULE:FREQ=DAILY"
      : choice.repeat === "weekdays"
        ? "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        : `RRULE:FREQ=WEEKLY;BYDAY=${days.join(",")}`;
  return `${start}\n${rule}`;
}

/** A run time in the schedule's zone: "Mon, 30 Nov 2026, 07:00". */
export function formatRunTime(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: timezone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(new Date(iso))
    .replace(" at ", ", ");
}
