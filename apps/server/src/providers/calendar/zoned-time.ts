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
