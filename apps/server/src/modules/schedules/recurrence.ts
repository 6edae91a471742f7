import * as rrulePackage from "rrule";
import { SCHEDULE_ERRORS } from "@sage/contracts/schedules";
import { badRequest } from "../../http/app-error.ts";
import { isTimeZone, wallTime, zonedToUtc } from "../../providers/calendar/zoned-time.ts";

// rrule ships CommonJS (UMD) with ES module types: Node's import gives its exports under `default`.
const { RRule } = ((rrulePackage as unknown as { default?: typeof rrulePackage }).default ?? rrulePackage) as typeof rrulePackage;
type RRuleInstance = InstanceType<typeof RRule>;

/** A checked recurrence: the rule over wall-clock times (local to `timezone`, held as UTC fields). */
export interface Recurrence {
  rule: RRuleInstance;
  timezone: string;
}

const RULE_KEYS = new Set([
  "FREQ",
  "INTERVAL",
  "COUNT",
  "UNTIL",
  "BYDAY",
  "BYMONTH",
  "BYMONTHDAY",
  "BYYEARDAY",
  "BYWEEKNO",
  "BYHOUR",
  "BYMINUTE",
  "BYSECOND",
  "BYSETPOS",
  "WKST",
]);
const FREQUENCIES = new Set(["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"]);
const START = /^DTSTART(?:;TZID=([^:;]+))?:(\d{8}T\d{6})(Z?)$/;

/** Throws the plain 400 when `zone` is not an IANA time zone Node knows. */
export function checkTimezone(zone: string): void {
  if (!isTimeZone(zone)) throw badRequest(SCHEDULE_ERRORS.timezoneInvalid(zone), "invalid_timezone");
}

/** The wall clock in `zone` at `instant`, as a Date whose UTC fields are that wall clock (rrule's floating times). */
export function toWallClock(instant: Date, zone: string): Date {
  const wall = wallTime(instant.getTime(), zone);
  return new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
}

/**
 * The instant a wall-clock time in `zone` names. A time the clocks skip (02:30 on the spring-forward night) is
 * taken an hour later, as calendars do; a time that happens twice (autumn) is its first.
 */
export function fromWallClock(wall: Date, zone: string): Date {
  const fields = {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
  return new Date(zonedToUtc(fields, zone));
}

function checkRuleLine(line: string) {
  const parts = line.slice("RRULE:".length).split(";");
  const keys = new Set<string>();
  for (const part of parts) {
    const [key, value, extra] = part.split("=");
    if (!key || !value || extra !== undefined || !RULE_KEYS.has(key) || keys.has(key)) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
    keys.add(key);
    if (key === "FREQ" && !FREQUENCIES.has(value)) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
    if ((key === "INTERVAL" || key === "COUNT") && !/^[1-9]\d{0,5}$/.test(value)) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
    if (key === "UNTIL" && !/^\d{8}(T\d{6}Z?)?$/.test(value)) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
    if (key === "BYDAY" && !/^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)(,([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU))*$/.test(value))
      throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
    if (key.startsWith("BY") && key !== "BYDAY" && !/^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/.test(value))
      throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  }
  if (!keys.has("FREQ")) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  if (parts.includes("FREQ=SECONDLY")) throw badRequest(SCHEDULE_ERRORS.rruleTooOften, "invalid_rrule");
}

/**
 * Reads an RFC 5545 rule with its start (`DTSTART;TZID=Europe/Zurich:20261127T070000` then `RRULE:...`). The start
 * may name no zone (it is then the schedule's `timezone`), the same zone, or UTC (`Z`); another zone is a 400, as is
 * anything rrule would guess at. Each failure is a sentence a person can act on.
 */
export function parseRecurrence(text: string, timezone: string): Recurrence {
  checkTimezone(timezone);
  const lines = text
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const startLines = lines.filter((line) => line.startsWith("DTSTART"));
  const ruleLines = lines.filter((line) => line.startsWith("RRULE:"));
  if (startLines.length === 0) throw badRequest(SCHEDULE_ERRORS.rruleNeedsStart, "invalid_rrule");
  if (startLines.length > 1 || ruleLines.length !== 1 || lines.length !== 2) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  const start = START.exec(startLines[0]!);
  if (!start) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  const [, zone, stamp, utc] = start;
  if (zone) {
    checkTimezone(zone);
    if (zone !== timezone) throw badRequest(SCHEDULE_ERRORS.timezoneMismatch(zone, timezone), "invalid_timezone");
  }
  if (zone && utc) throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  checkRuleLine(ruleLines[0]!);
  const s = stamp!;
  const wallStart = new Date(Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8), +s.slice(9, 11), +s.slice(11, 13), +s.slice(13, 15)));
  if (Number.isNaN(wallStart.getTime()) || wallStart.getUTCDate() !== +s.slice(6, 8) || wallStart.getUTCMonth() !== +s.slice(4, 6) - 1 || +s.slice(9, 11) > 23)
    throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  let options;
  try {
    options = RRule.parseString(ruleLines[0]!);
  } catch {
    throw badRequest(SCHEDULE_ERRORS.rruleInvalid, "invalid_rrule");
  }
  // Occurrences are computed on the local wall clock (no tzid), then each is placed in the zone: 07:00 stays 07:00.
  const dtstart = utc ? toWallClock(wallStart, timezone) : wallStart;
  const rule = new RRule({ ...options, dtstart, tzid: null });
  return { rule, timezone };
}

/** The first `count` occurrences strictly after `after` (UTC instants). */
export function nextOccurrences(recurrence: Recurrence, after: Date, count: number): Date[] {
  const found: Date[] = [];
  // Start an hour back on the wall clock so an occurrence near a DST change is not skipped; filter by instant.
  let cursor = new Date(toWallClock(after, recurrence.timezone).getTime() - 3_600_000);
  for (let guard = 0; found.length < count && guard < count + 10; guard++) {
    const wall = recurrence.rule.after(cursor, false);
    if (!wall) break;
    cursor = wall;
    const instant = fromWallClock(wall, recurrence.timezone);
    if (instant.getTime() > after.getTime() && !found.some((date) => date.getTime() === instant.getTime())) found.push(instant);
  }
  return found;
}

/** The latest occurrence in (`after`, `upTo`], or null (a missed run: only the latest one runs). */
export function latestOccurrence(recurrence: Recurrence, after: Date, upTo: Date): Date | null {
  const wall = recurrence.rule.before(new Date(toWallClock(upTo, recurrence.timezone).getTime() + 3_600_000), true);
  let cursor = wall;
  // Walk back past wall times that fall after `upTo` once placed in the zone (the hour around a DST change).
  for (let guard = 0; cursor && guard < 5; guard++) {
    const instant = fromWallClock(cursor, recurrence.timezone);
    if (instant.getTime() <= upTo.getTime()) return instant.getTime() > after.getTime() ? instant : null;
    cursor = recurrence.rule.before(cursor, false);
  }
  return null;
}

const DAY_NAMES: Record<number, string> = { 0: "Monday", 1: "Tuesday", 2: "Wednesday", 3: "Thursday", 4: "Friday", 5: "Saturday", 6: "Sunday" };
const pad = (value: number) => String(value).padStart(2, "0");

/** The rule in plain words: "every weekday at 07:00 (Europe/Zurich)". Unusual rules fall back to rrule's own text. */
export function describeRecurrence(recurrence: Recurrence): string {
  const { options } = recurrence.rule;
  const hours = options.byhour ?? [options.dtstart.getUTCHours()];
  const minutes = options.byminute ?? [options.dtstart.getUTCMinutes()];
  const at = hours.length === 1 && minutes.length === 1 ? ` at ${pad(hours[0]!)}:${pad(minutes[0]!)}` : "";
  const days = (options.byweekday ?? []).slice().sort();
  const zone = ` (${recurrence.timezone})`;
  const every = options.interval > 1 ? `every ${options.interval} ` : "every ";
  if (options.freq === RRule.DAILY && days.length === 0) return `${options.interval > 1 ? `every ${options.interval} days` : "every day"}${at}${zone}`;
  if ((options.freq === RRule.WEEKLY || options.freq === RRule.DAILY) && options.interval === 1 && days.join() === "0,1,2,3,4")
    return `every weekday${at}${zone}`;
  if (options.freq === RRule.WEEKLY) {
    const list = days.length > 0 ? days.map((day) => DAY_NAMES[day]) : [DAY_NAMES[(options.dtstart.getUTCDay() + 6) % 7]];
    const named = list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list[0];
    return `${options.interval > 1 ? `${every}weeks on` : "every"} ${named}${at}${zone}`;
  }
  return `${recurrence.rule.toText()}${zone}`;
}
