import ICAL from "ical.js";

// ical.js folds at `foldLength` octets and puts the continuation's leading space beyond it: 74 keeps every line
// within RFC 5545's 75 octets (3.1). It never splits a UTF-8 character.
ICAL.foldLength = 74;

export type IcsComponent = InstanceType<typeof ICAL.Component>;

/** A VCALENDAR object carrying what every object SAGE writes carries, plus any calendar-level text properties. */
export function icsCalendar(prodId: string, extra: Record<string, string> = {}): IcsComponent {
  const calendar = new ICAL.Component("vcalendar");
  calendar.addPropertyWithValue("version", "2.0");
  calendar.addPropertyWithValue("prodid", prodId);
  calendar.addPropertyWithValue("calscale", "GREGORIAN");
  for (const [name, value] of Object.entries(extra)) {
    // Unknown X- properties default to an unescaped type in ical.js; these are TEXT (RFC 5545 3.8.8.2).
    const property = new ICAL.Property(name.toLowerCase());
    property.resetType("text");
    property.setValue(value);
    calendar.addProperty(property);
  }
  return calendar;
}

/** A TEXT value as ical.js escapes it (RFC 5545 3.3.11): any line break becomes one `\n`. */
export const icsText = (value: string) => value.replace(/\r\n?/g, "\n");

/** A value that must stay on one line (a UID, an address). */
export const icsOneLine = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

/** A UTC DATE-TIME (written 20261128T090000Z, without milliseconds), from a Date or an ISO string. */
export const icsUtcTime = (at: Date | string) => ICAL.Time.fromJSDate(new Date(at), true);

/** A DATE (written ;VALUE=DATE:20261128), from "2026-11-28" or the date part of an ISO date-time. */
export const icsDay = (date: string) => ICAL.Time.fromDateString(date.slice(0, 10));

/** A DURATION such as "PT15M". */
export const icsDuration = (value: string) => ICAL.Duration.fromString(value);

/** An attendee or organiser address as a mailto: CAL-ADDRESS. */
export const icsMailto = (address: string) => `mailto:${icsOneLine(address)}`;

/** The object's text: folded content lines, each ending in CRLF (RFC 5545 3.1). */
export const icsObjectText = (calendar: IcsComponent) => `${calendar.toString()}\r\n`;
