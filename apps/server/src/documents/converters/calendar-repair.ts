/**
 * Lenient iCalendar reading (decision 033): what calendar clients forgive, repaired line by line before ical.js
 * parses, so one broken line costs that line, never the calendar.
 * - folding: a continuation line that lost its leading space is joined to the line before (a fold at the usual
 *   width directly, a shorter line as a line break in the text), a stray word alone on a line is dropped;
 * - date-times written with separators or with their time missing ("2022-01-01T::") become dates or date-times;
 * - ORGANIZER and ATTENDEE with an unquoted CN holding ':' or ';' ("CN=Room 4: Booking") are re-quoted.
 */

const PROPERTY_LINE = /^(?:[A-Z][A-Z0-9-]*|X-[A-Za-z0-9-]+)[;:]/;
const DATE_PROPERTIES = new Set(["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "EXDATE", "RDATE"]);
/** Lines are folded at 75 octets; a continuation after a line this long was a fold, not a line break. */
const FOLD_WIDTH = 70;

export function repairCalendarText(text: string): string {
  const lines: string[] = [];
  let physicalLength = 0;
  for (const raw of text.split(/\r\n|\n|\r/)) {
    const previous = lines.at(-1);
    const physical = physicalLength;
    physicalLength = raw.length;
    if (/^[ \t]/.test(raw) && previous !== undefined) {
      lines[lines.length - 1] += raw.slice(1);
      continue;
    }
    if (!raw.trim()) continue;
    if (PROPERTY_LINE.test(raw)) {
      lines.push(raw);
      continue;
    }
    // Text after BEGIN/END, or a lone word, is not part of any value.
    if (previous === undefined || /^(?:BEGIN|END):/i.test(previous) || /^[A-Z][A-Z0-9-]*$/.test(raw)) continue;
    lines[lines.length - 1] = previous + (physical >= FOLD_WIDTH ? "" : "\\n") + raw;
  }
  return lines.flatMap(repairLine).join("\r\n");
}

function repairLine(line: string): string[] {
  const name = /^[A-Za-z0-9-]+/.exec(line)![0].toUpperCase();
  if (DATE_PROPERTIES.has(name)) return repairDateLine(line);
  if (name === "ORGANIZER" || name === "ATTENDEE") return [repairAddressLine(line)];
  return [line];
}

/** "DTSTART:2022-01-01T::" to "DTSTART;VALUE=DATE:20220101"; a value with no date in it loses its line. */
function repairDateLine(line: string): string[] {
  const colon = valueColon(line);
  const head = line.slice(0, colon);
  const values = line.slice(colon + 1).split(",");
  if (values.every((value) => /^\d{8}(?:T\d{6}Z?)?$/.test(value.trim()) || /^\d{8}(?:T\d{6}Z?)?\/\S+$/.test(value.trim()))) return [line];
  const repaired = values.map(repairDateValue);
  if (repaired.some((value) => value === undefined)) return [];
  const allDates = repaired.every((value) => value!.length === 8);
  const params = head.replace(/;VALUE=[^;:]*/i, "") + (allDates ? ";VALUE=DATE" : "");
  return [`${params}:${repaired.join(",")}`];
}

function repairDateValue(value: string): string | undefined {
  const [datePart = "", timePart = ""] = value.trim().toUpperCase().split("T");
  const date = datePart.replace(/[^0-9]/g, "");
  if (!/^\d{8}$/.test(date)) return undefined;
  const time = timePart.replace(/[^0-9]/g, "");
  if (time.length !== 4 && time.length !== 6) return date;
  return `${date}T${time.padEnd(6, "0")}${timePart.endsWith("Z") ? "Z" : ""}`;
}

/** The value of an address starts at its URI scheme ("mailto:"), whatever colons an unquoted CN holds before it. */
function repairAddressLine(line: string): string {
  const scheme = /:(?:mailto|urn|https?|sip|tel):/i.exec(line.slice(line.indexOf(";") + 1 || line.length));
  const semicolon = line.indexOf(";");
  if (!scheme || semicolon < 0) return line;
  const valueStart = semicolon + 1 + scheme.index;
  const params: string[] = [];
  for (const piece of splitParams(line.slice(semicolon + 1, valueStart))) {
    if (params.length > 0 && !/^[A-Za-z0-9-]+=/.test(piece)) params[params.length - 1] += `;${piece}`;
    else params.push(piece);
  }
  const quoted = params.map((param) => {
    const equals = param.indexOf("=");
    const value = param.slice(equals + 1);
    return equals > 0 && !value.startsWith('"') && /[:;,]/.test(value) ? `${param.slice(0, equals)}="${value.replaceAll('"', "'")}"` : param;
  });
  return `${line.slice(0, semicolon)};${quoted.join(";")}${line.slice(valueStart)}`;
}

/** Parameters split at semicolons outside double quotes. */
function splitParams(text: string): string[] {
  const pieces: string[] = [];
  let current = "";
  let quoted = false;
  for (const character of text) {
    if (character === '"') quoted = !quoted;
    if (character === ";" && !quoted) {
      pieces.push(current);
      current = "";
    } else current += character;
  }
  pieces.push(current);
  return pieces.filter(Boolean);
}

/** Where the value starts: the first colon outside a quoted parameter value. */
function valueColon(line: string): number {
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    if (line[index] === '"') quoted = !quoted;
    else if (line[index] === ":" && !quoted) return index;
  }
  return line.length;
}
