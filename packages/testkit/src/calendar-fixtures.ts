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
export function singleEvent(options: {
  uid: string;
  title: string;
  start: Date;
  minutes: number;
  location?: string;
  attendees?: string[];
  description?: string;
}) {
  return calendarText(
    "BEGIN:VEVENT",
    `UID:${options.uid}`,
    `DTSTAMP:${stamp(options.start)}`,
    `DTSTART:${stamp(options.start)}`,
    `DTEND:${stamp(new Date(options.start.getTime() + options.minutes * 60_000))}`,
    `SUMMARY:${options.title}`,
    ...(options.location ? [`LOCATION:${options.location}`] : []),
    ...(options.description ? [`DESCRIPTION:${options.description}`] : []),
    ...(options.attendees ?? []).map((address) => `ATTENDEE:mailto:${address}`),
    "END:VEVENT",
  );
}

/** One all-day event; `transparent` marks it TRANSP:TRANSPARENT (free), else it says nothing (RFC 5545: busy). */
export function allDayEvent(options: { uid: string; title: string; day: string; transparent?: boolean }) {
  const day = options.day.replace(/-/g, "");
  const next = ymd(new Date(Date.parse(`${options.day}T00:00:00Z`) + DAY));
  return calendarText(
    "BEGIN:VEVENT",
    `UID:${options.uid}`,
    `DTSTAMP:${day}T000000Z`,
    `DTSTART;VALUE=DATE:${day}`,
    `DTEND;VALUE=DATE:${next}`,
    `SUMMARY:${options.title}`,
    ...(options.transparent ? ["TRANSP:TRANSPARENT"] : []),
    "END:VEVENT",
  );
}

/**
 * Shaped like ical.js's `recur_instances` sample (a Zimbra export): an endless monthly rule (first Tuesday, 10:00
 * America/Los_Angeles, since 2012), extra dates (one a PERIOD), cancelled dates, two moved occurrences (one named in
 * UTC), a second VTIMEZONE block with no TZID, and a component no standard knows.
 */
export const ENDLESS_FIRST_TUESDAY = calendarText(
  "BEGIN:VTIMEZONE",
  "TZID:America/Los_Angeles",
  "BEGIN:STANDARD",
  "DTSTART:19710101T020000",
  "TZOFFSETTO:-0800",
  "TZOFFSETFROM:-0700",
  "RRULE:FREQ=YEARLY;WKST=MO;INTERVAL=1;BYMONTH=11;BYDAY=1SU",
  "TZNAME:PST",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:19710101T020000",
  "TZOFFSETTO:-0700",
  "TZOFFSETFROM:-0800",
  "RRULE:FREQ=YEARLY;WKST=MO;INTERVAL=1;BYMONTH=3;BYDAY=2SU",
  "TZNAME:PDT",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
  "BEGIN:VTIMEZONE",
  "X-INVALID-TIMEZONE:TRUE",
  "END:VTIMEZONE",
  "BEGIN:VEVENT",
  "UID:first-tuesday@sage.test",
  "RRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=1TU",
  "RDATE:20231123T090000Z",
  "RDATE;VALUE=PERIOD:20231125T090000Z/20231125T123000Z",
  "SUMMARY:Partner review",
  "ATTENDEE;CN=Lena Ortiz;PARTSTAT=ACCEPTED:mailto:lena@example.com",
  "LOCATION:Pier 3",
  "ORGANIZER;CN=Sam Lee:mailto:sam@example.com",
  "DTSTART;TZID=America/Los_Angeles:20121002T100000",
  "DTEND;TZID=America/Los_Angeles:20121002T103000",
  "STATUS:CONFIRMED",
  "TRANSP:OPAQUE",
  "DTSTAMP:20120912T171506Z",
  "RDATE;TZID=America/Los_Angeles:20121105T100000",
  "RDATE;TZID=America/Los_Angeles:20121110T100000,20121130T100000",
  "EXDATE;TZID=America/Los_Angeles:20130402T100000",
  "EXDATE;TZID=America/Los_Angeles:20121204T100000",
  "BEGIN:VALARM",
  "ACTION:DISPLAY",
  "TRIGGER;RELATED=START:-PT5M",
  "DESCRIPTION:Reminder",
  "END:VALARM",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:first-tuesday@sage.test",
  "SUMMARY:Partner review (moved)",
  "DTSTART;TZID=America/Los_Angeles:20121002T150000",
  "DTEND;TZID=America/Los_Angeles:20121002T153000",
  "RECURRENCE-ID;TZID=America/Los_Angeles:20121002T100000",
  "DTSTAMP:20120912T171540Z",
  "SEQUENCE:1",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:first-tuesday@sage.test",
  "SUMMARY:Partner review (moved)",
  "DTSTART;TZID=America/Los_Angeles:20121106T200000",
  "DTEND;TZID=America/Los_Angeles:20121106T203000",
  "RECURRENCE-ID:20121105T180000Z",
  "DTSTAMP:20120912T171820Z",
  "SEQUENCE:1",
  "END:VEVENT",
  "BEGIN:X-UNKNOWN",
  "END:X-UNKNOWN",
);
