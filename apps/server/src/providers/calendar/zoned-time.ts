/** Wall-clock times in named time zones, with the platform's own zone data (Intl), across daylight-saving changes. */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** True for a zone name Intl knows ("Europe/Prague", "UTC"). */
export function isTimeZone(name: string): boolean {
  if (!name) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in a zone. */
export function wallTime(instantMs: number, timeZone: string): WallTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instantMs))
      .filter((part) => part.type !== "literal")
      .map((part) => [part.type, Number(part.value)]),
  );
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

const offsetAt = (instantMs: number, timeZone: string) => {
  const wall = wallTime(instantMs, timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - Math.floor(instantMs / 1000) * 1000;
};

/**
 * The instant a wall-clock time names in a zone. A time skipped by a spring-forward change is read with the offset
 * before it (02:30 becomes 03:30), a time repeated by a fall-back change is the first of the two, as calendars do.
 */
export function zonedToUtc(wall: WallTime, timeZone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  // The offsets a day either side cover any change near this time (zones change at most once a day).
  const before = offsetAt(asUtc - 86_400_000, timeZone);
  const after = offsetAt(asUtc + 86_400_000, timeZone);
  const matches = [asUtc - before, asUtc - after].filter((candidate) => offsetAt(candidate, timeZone) === asUtc - candidate);
  return matches.length > 0 ? Math.min(...matches) : asUtc - before;
}

/** The calendar day after a given one (month and year ends handled by Date.UTC). */
export function nextDay(day: { year: number; month: number; day: number }, by = 1) {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + by));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

const pad = (value: number, size = 2) => String(Math.abs(value)).padStart(size, "0");

/** An instant as the zone's wall time with its offset: "2026-12-01T10:00:00+01:00" (what the user and the model read). */
export function formatZoned(instantMs: number, timeZone: string): string {
  const wall = wallTime(instantMs, timeZone);
  const offset = Math.round(
    (Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - Math.floor(instantMs / 1000) * 1000) / 60_000,
  );
  const sign = offset < 0 ? "-" : "+";
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/**
 * A time the model or the user wrote, as an instant: a date-time with Z or an offset is taken as it is; a local
 * date-time ("2026-12-01T10:00") is read in the zone; a day alone means its start (or, for an end, the next day's
 * start). Null when it is none of these.
 */
export function parseZoned(value: unknown, timeZone: string, options: { endOfDay?: boolean } = {}): number | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const date = { year: Number(day[1]), month: Number(day[2]), day: Number(day[3]) };
    const start = options.endOfDay ? nextDay(date) : date;
    return zonedToUtc({ ...start, hour: 0, minute: 0, second: 0 }, timeZone);
  }
  const local = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text);
  if (local) {
    const [, year, month, date, hour, minute, second] = local.map(Number) as number[];
    if (month! < 1 || month! > 12 || date! < 1 || date! > 31 || hour! > 23 || minute! > 59) return null;
    return zonedToUtc({ year: year!, month: month!, day: date!, hour: hour!, minute: minute!, second: second || 0 }, timeZone);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
