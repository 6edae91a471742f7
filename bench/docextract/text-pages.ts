// Deterministic business prose for OCR pages, and the character error rate of a reading of it.

const NAMES = ["Jana Novak", "Robert Hale", "Amara Osei", "Lukas Brandt", "Sofia Marquez", "Kenji Watanabe"];
const PROJECTS = ["Falcon", "Orion", "Vega", "Kestrel", "Atlas", "Meridian"];
const MONTHS = ["January", "March", "April", "June", "September", "November"];
const TEMPLATES = [
  (n: number) => `The board approved the ${PROJECTS[n % 6]} budget of EUR ${((n * 37) % 900) + 100},000 for the coming year.`,
  (n: number) => `${NAMES[n % 6]} will present the quarterly results on ${(n % 27) + 1} ${MONTHS[n % 6]} 2025.`,
  (n: number) => `Revenue in the northern region grew by ${(n % 19) + 2}.${n % 10}% while costs fell slightly.`,
  (n: number) => `Please review section ${(n % 12) + 1} of the lease before the meeting with the landlord.`,
  (n: number) => `The auditors asked for invoices 2024-${String((n % 900) + 100)} to 2024-${String((n % 900) + 140)} by Friday.`,
  (n: number) => `Hiring for the ${PROJECTS[(n + 2) % 6]} team is paused until the contract is signed.`,
  (n: number) => `Action: ${NAMES[(n + 3) % 6]} to confirm the supplier terms (net ${30 + (n % 3) * 15} days).`,
  (n: number) => `Travel to the Prague office is limited to ${(n % 4) + 2} people per month.`,
];

/** About `count` lines of up to `width` characters, the same for the same seed. */
export function proseLines(seed: number, count: number, width = 88): string[] {
  const words = Array.from({ length: count * 2 }, (_, index) => TEMPLATES[(seed + index) % TEMPLATES.length]!(seed * 31 + index))
    .join(" ")
    .split(" ");
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      if (lines.length === count) break;
      line = "";
    }
    line += (line ? " " : "") + word;
  }
  return lines;
}

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

/** Edit distance between the texts (whitespace collapsed) over the reference's length. */
export function characterErrorRate(reference: string, reading: string): number {
  const expected = normalise(reference);
  const actual = normalise(reading);
  let previous = Int32Array.from({ length: actual.length + 1 }, (_, index) => index);
  let current = new Int32Array(actual.length + 1);
  for (let row = 1; row <= expected.length; row++) {
    current[0] = row;
    for (let column = 1; column <= actual.length; column++) {
      const substitution = previous[column - 1]! + (expected[row - 1] === actual[column - 1] ? 0 : 1);
      current[column] = Math.min(substitution, previous[column]! + 1, current[column - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return expected.length === 0 ? 0 : previous[actual.length]! / expected.length;
}
