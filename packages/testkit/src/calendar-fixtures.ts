/** iCalendar texts for calendar tests: a weekly meeting across a daylight-saving change, single events, a zone. */

export const PRAGUE_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Prague",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
].join("\r\n");

const pad = (value: number) => String(value).padStart(2, "0");
const ymd = (date: Date) => `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
const stamp = (date: Date) => `${ymd(date)}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
const DAY = 86_400_000;

export const calendarText = (...parts: string[]) => ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SAGE tests//EN", ...parts, "END:VCALENDAR", ""].join("\r\n");

/**
 * "Board sync", Mondays 10:00-11:00 Prague time, six weeks around the first spring-forward change after `now`:
 * two Mondays in winter time (09:00 UTC), the rest in summer time (08:00 UTC); the fourth is cancelled (EXDATE)
 * and the fifth moved to the Tuesday at 15:00 (RECURRENCE-ID). `expected` lists the five that remain, in UTC.
 */
export function weeklyAcrossDst(now = new Date()) {
  let year = now.getUTCFullYear();
  const lastSundayOfMarch = (y: number) => {
    const end = new Date(Date.UTC(y, 2, 31));
    return new Date(end.getTime() - end.getUTCDay() * DAY);
  };
  if (lastSundayOfMarch(year).getTime() < now.getTime()) year += 1;
  const change = lastSundayOfMarch(year);
  const mondays = [-13, -6, 1, 8, 15, 22].map((offset) => new Date(change.getTime() + offset * DAY));
  const at = (day: Date, hourUtc: number) => new Date(day.getTime() + hourUtc * 3_600_000).toISOString();
  const uid = "board-sync@sage.test";
  const movedDay = new Date(mondays[4]!.getTime() + DAY);
  const ics = calendarText(
    PRAGUE_VTIMEZONE,
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART;TZID=Europe/Prague:${ymd(mondays[0]!)}T100000`,
    `DTEND;TZID=Europe/Prague:${ymd(mondays[0]!)}T110000`,
    "RRULE:FREQ=WEEKLY;COUNT=6",
    `EXDATE;TZID=Europe/Prague:${ymd(mondays[3]!)}T100000`,
    "SUMMARY:Board sync",
    "LOCATION:Room 4",
    "ATTENDEE;CN=Anna Berg:mailto:anna@example.com",
    "END:VEVENT",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(now)}`,
    `RECURRENCE-ID;TZID=Europe/Prague:${ymd(mondays[4]!)}T100000`,
    `DTSTART;TZID=Europe/Prague:${ymd(movedDay)}T150000`,
    `DTEND;TZID=Europe/Prague:${ymd(movedDay)}T160000`,
    "SUMMARY:Board sync (moved)",
    "LOCATION:Room 4",
    "END:VEVENT",
  );
  return {
    uid,
    ics,
    /** The Sunday the clocks go forward. */
    change: change.toISOString().slice(0, 10),
    expected: [
      { title: "Board sync", startAt: at(mondays[0]!, 9), endAt: at(mondays[0]!, 10) },
      { title: "Board sync", startAt: at(mondays[1]!, 9), endAt: at(mondays[1]!, 10) },
      { title: "Board sync", startAt: at(mondays[2]!, 8), endAt: at(mondays[2]!, 9) },
      { title: "Board sync (moved)", startAt: at(movedDay, 13), endAt: at(movedDay, 14) },
      { title: "Board sync", startAt: at(mondays[5]!, 8), endAt: at(mondays[5]!, 9) },
    ],
    cancelledStart: at(mondays[3]!, 8),
  };
}

/** One timed event in UTC. */
export function singleEvent(options: { uid: string; title: string; start: Date; minutes: number; location?: string }) {
  return calendarText(
    "BEGIN:VEVENT",
    `UID:${options.uid}`,
    `DTSTAMP:${stamp(options.start)}`,
    `DTSTART:${stamp(options.start)}`,
    `DTEND:${stamp(new Date(options.start.getTime() + options.minutes * 60_000))}`,
    `SUMMARY:${options.title}`,
    ...(options.location ? [`LOCATION:${options.location}`] : []),
    "END:VEVENT",
  );
}
