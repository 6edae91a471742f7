import { parse } from "vcard4";

/** What SAGE keeps of a contact card: who it is, their addresses, and where they work. */
export interface ContactCard {
  uid: string;
  name: string;
  emails: string[];
  organisation: string | null;
  role: string | null;
  /** The card's groups ("Board", "Investors"), which the user's triage rules may name. */
  categories: string[];
}

/** The properties read; the rest (photos, phone numbers, custom X- ones) is left out before parsing. */
const KEPT = new Set(["UID", "FN", "N", "EMAIL", "ORG", "TITLE", "ROLE", "CATEGORIES"]);
/** A vCard this long is not a contact card (a photo left inline, an attack): it is skipped. */
const MAX_CARD_CHARS = 200_000;

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : Array.isArray(value) ? value.map(text).filter(Boolean).join(", ") : "");

/**
 * Reads one vCard (as a CardDAV server serves it) with vcard4. Servers still serve vCard 3.0 (Google, iCloud) and
 * vcard4 reads only 4.0, so the card is first cut down to the properties SAGE uses, without parameters (TYPE=,
 * CHARSET=, groups such as Apple's `item1.`), under VERSION:4.0; those properties read the same in both versions.
 * Answers null for a card that cannot be read or names no one.
 */
export function readVcard(source: string): ContactCard | null {
  if (source.length > MAX_CARD_CHARS) return null;
  const unfolded = source.replace(/\r?\n[ \t]/g, "");
  const lines: string[] = [];
  for (const line of unfolded.split(/\r?\n/)) {
    const match = /^(?:[A-Za-z0-9-]+\.)?([A-Za-z0-9-]+)(?:;[^:]*)?:(.*)$/.exec(line);
    if (!match) continue;
    const property = match[1]!.toUpperCase();
    if (KEPT.has(property) && match[2]!.trim()) lines.push(`${property}:${match[2]!.trim()}`);
  }
  const emails = lines
    .filter((line) => line.startsWith("EMAIL:"))
    .map((line) =>
      line
        .slice(6)
        .replace(/^mailto:/i, "")
        .trim()
        .toLowerCase(),
    );
  if (!lines.some((line) => line.startsWith("FN:"))) {
    const fallback = emails[0];
    if (!fallback) return null;
    lines.push(`FN:${fallback}`);
  }
  let parsed;
  try {
    const result = parse(["BEGIN:VCARD", "VERSION:4.0", ...lines, "END:VCARD", ""].join("\r\n"));
    parsed = Array.isArray(result) ? result[0] : result;
  } catch {
    return null;
  }
  if (!parsed) return null;
  const first = (property: string) => parsed.parsedVcard.find((entry) => entry.property === property)?.value as unknown;
  const all = (property: string) => parsed.parsedVcard.filter((entry) => entry.property === property).map((entry) => entry.value as unknown);
  const org = first("ORG");
  const name = text(first("FN"));
  if (!name) return null;
  return {
    uid: text(first("UID")) || emails[0] || name,
    name,
    emails: [
      ...new Set(
        all("EMAIL")
          .map((value) =>
            text(value)
              .replace(/^mailto:/i, "")
              .toLowerCase(),
          )
          .filter((value) => value.includes("@")),
      ),
    ],
    organisation: (Array.isArray(org) ? text(org[0]) : text(org)) || null,
    role: text(first("TITLE")) || text(first("ROLE")) || null,
    categories: [
      ...new Set(
        all("CATEGORIES")
          .flatMap((value) => (Array.isArray(value) ? value.map(text) : text(value).split(",")))
          .map((value) => value.trim())
          .filter(Boolean),
      ),
    ],
  };
}
