import ICAL from "ical.js";

// ical.js folds at `foldLength` octets and puts the continuation's leading space beyond it: 74 keeps every line
// within RFC 5545's 75 octets (3.1). It never splits a UTF-8 character.
ICAL.foldLength = 74;

/** A TEXT value in iCalendar (RFC 5545 3.3.11), escaped by ical.js; any line break is one `\n`. */
export const escapeIcsText = (value: string) => ICAL.stringify.value(value.replace(/\r\n?/g, "\n"), "text", ICAL.design.icalendar, false);

/** A UTC DATE-TIME in iCalendar's form (20261128T090000Z), from a Date or an ISO string. */
export const icsUtc = (at: Date | string) => ICAL.Time.fromJSDate(new Date(at), true).toICALString();

/** Folds a content line (RFC 5545 3.1), by ical.js. */
export const foldIcsLine = (line: string): string => ICAL.helpers.foldline(line);
