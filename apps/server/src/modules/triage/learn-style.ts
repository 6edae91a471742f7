/** The item text of a synced mail is its headers, a blank line, then the body: the body alone. */
export function mailBody(text: string): string {
  const split = text.indexOf("\n\n");
  if (split > 0 && /^(?:From|To|Date|Subject|Cc):/m.test(text.slice(0, split))) return text.slice(split + 2);
  return text;
}

/** A reply's own words: what comes before the quoted mail ("On ... wrote:", "> ...", "-----Original Message-----") and the signature. */
export function ownWords(body: string): string {
  const lines = body.replace(/\r\n/g, "\n").split("\n");
  const end = lines.findIndex(
    (line) => /^>/.test(line) || /^On .{3,200} wrote:\s*$/i.test(line) || /^-{2,}\s*(?:Original|Forwarded) Message/i.test(line) || /^-- ?$/.test(line),
  );
  return (end === -1 ? lines : lines.slice(0, end)).join("\n").trim();
}

/** What SAGE learned of how the user writes (decision 098): greeting, sign-off, length, and two short samples of tone. */
export interface WritingStyle {
  /** "Hi {name}," ({name}: the first name of the person written to); null when the user opens with no greeting. */
  greeting: string | null;
  /** "Best,\nJan"; null when the user signs off with nothing. */
  signOff: string | null;
  /** The usual length of the user's own words in a reply (the median). */
  words: number;
  samples: string[];
  learnedFrom: number;
}

const GREETING = /^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|morning|hallo|bonjour|hej)\b.{0,40}$/i;
const CLOSING =
  /^(?:best(?: regards| wishes)?|kind regards|regards|warm(?:est)? regards|thanks(?: again)?|thank you|many thanks|cheers|all the best|warmly|yours(?: sincerely)?|sincerely|talk soon|speak soon)[,.!]?$/i;

/** The most frequent value, if it is the habit (at least a third of the mails that have one). */
function habit(values: (string | null)[]): string | null {
  const counts = new Map<string | null, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return best && best[0] !== null && best[1] >= Math.max(2, values.length / 3) ? best[0] : null;
}

const firstName = (to: string) => /^\s*"?([\p{L}'-]+)/u.exec(to.replace(/<[^>]*>/, "").trim())?.[1] ?? null;

/**
 * Reads the user's style from their own sent mail (bodies without the quoted mail they answered): the greeting they
 * open with, the sign-off they close with, and how long they write. Deterministic and local: no model is asked, so
 * nothing of the Sent folder leaves for this; the reply's words are then written by the model to these measures.
 */
export function learnStyle(sent: readonly { to: string; text: string }[]): WritingStyle {
  const greetings: (string | null)[] = [];
  const signOffs: (string | null)[] = [];
  const lengths: number[] = [];
  const samples: string[] = [];
  for (const mail of sent) {
    const lines = ownWords(mailBody(mail.text))
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    if (lines.length === 0) continue;
    let start = 0;
    let end = lines.length;
    const name = firstName(mail.to);
    const first = lines[0]!;
    if (GREETING.test(first) || (/^[\p{L}'-]+,$/u.test(first) && first.length <= 30)) {
      greetings.push(name ? first.replace(new RegExp(`\\b${name}\\b`, "u"), "{name}") : first);
      start = 1;
    } else greetings.push(null);
    const last = lines[end - 1]!;
    const before = lines[end - 2];
    if (before !== undefined && CLOSING.test(before) && last.split(/\s+/).length <= 3 && !/[.!?]$/.test(last)) {
      signOffs.push(`${before}\n${last}`);
      end -= 2;
    } else if (CLOSING.test(last)) {
      signOffs.push(last);
      end -= 1;
    } else signOffs.push(null);
    const body = lines.slice(start, Math.max(start, end)).join(" ");
    const words = body.split(/\s+/).filter(Boolean).length;
    if (words > 0) lengths.push(words);
    if (samples.length < 2 && words >= 5 && body.length <= 400) samples.push(body);
  }
  lengths.sort((a, b) => a - b);
  return {
    greeting: habit(greetings),
    signOff: habit(signOffs),
    words: lengths.length ? lengths[Math.floor(lengths.length / 2)]! : 60,
    samples,
    learnedFrom: lengths.length,
  };
}

/** The greeting for someone: "Hi Anna,"; a greeting that names no one stays as it is. */
export const greetingFor = (style: Pick<WritingStyle, "greeting">, to: string): string | null =>
  style.greeting
    ? style.greeting
        .replace("{name}", firstName(to) ?? "")
        .replace(/\s+,/, ",")
        .trim()
    : null;
