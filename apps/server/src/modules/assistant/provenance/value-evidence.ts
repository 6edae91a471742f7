import { foldCase } from "@sage/contracts/text";

/**
 * The pieces of a value that can be traced to where they came from (issue 47, decision 062). Decided by data flow:
 * a piece counts as someone else's when it is found in text someone else wrote and not in the user's own words,
 * never by what the text says.
 *   - carriers: what sends or identifies something: e-mail addresses, links (and bare domains), codes and long
 *     numbers (an IBAN, a security code, an amount), matched exactly;
 *   - quotes: a run of QUOTE_WORDS words copied from a text;
 *   - names: words a text writes as a proper name (capitalised mid-sentence, or all capitals);
 *   - words: any other significant word (folded and lightly stemmed), used where a value persists (a memory, a
 *     reminder) or leaves SAGE (a search query).
 */

/** Consecutive words shared with a text that make a value a quote of it. */
export const QUOTE_WORDS = 6;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
const URL = /\bhttps?:\/\/[^\s<>"')\]]+/giu;
const DOMAIN = /\b(?:[\p{L}\p{N}-]+\.)+(?:com|org|net|io|ai|co|de|ch|fr|uk|info|biz|ru|cn|example|test|xyz|app|dev|me|eu|us)\b/giu;
/** A token with digits: a code ("463820", "X7K9-22Q"), an amount ("50,000"), an IBAN piece ("CH00"). */
const DIGITS = /[\p{L}\p{N}]*\p{N}[\p{L}\p{N}]*(?:[.,\-/][\p{L}\p{N}]+)*/gu;
const YEAR_OR_TIME = /^(?:1[89]|20)\d{2}$|^\d{1,2}[:.]\d{2}$|^\d{4}-\d{2}-\d{2}/;

const STOPWORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being am do does did done have has had " +
    "i me my mine we us our ours you your yours he him his she her hers it its they them their theirs this that these those there here what which who whom " +
    "whose when where why how all any both each few more most other some such no nor not only own same so than too very can will just should now also " +
    "would could may might must shall let please thanks thank hi hello dear regards best via per up down out over under again further once get got make " +
    "made user users user's assistant sage always every never today tomorrow yesterday new one two"
  ).split(" "),
);

/** Words folded like search folds them (case and accents aside), at least two letters, or with a digit. */
export function words(text: string): string[] {
  return (foldCase(text).match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? []).filter((word) => word.length >= 2 || /\p{N}/u.test(word));
}

/** A light English stem, so "flies" meets "fly" and "prefers" meets "prefer"; other languages pass through. */
export function stem(word: string): string {
  const bare = word.replace(/'s$/, "");
  if (bare.length <= 4) return bare;
  if (bare.endsWith("ies")) return `${bare.slice(0, -3)}y`;
  if (bare.endsWith("ing") && bare.length > 6) return bare.slice(0, -3);
  if (bare.endsWith("ed") && bare.length > 5) return bare.slice(0, -2);
  if (bare.endsWith("es") && /(?:ss|sh|ch|x|z)es$/.test(bare)) return bare.slice(0, -2);
  if (bare.endsWith("s") && !bare.endsWith("ss")) return bare.slice(0, -1);
  return bare;
}

/** The words that carry meaning: not stop words, and no bare numbers (those are carriers). */
export function significantStems(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word) && !STOPWORDS.has(word.replace(/'s$/, "")) && !/^\p{N}+$/u.test(word))
    .map(stem);
}

const trimTrailing = (value: string) => value.replace(/[.,;:!?]+$/, "");

/** Addresses, links, domains and codes in a text, folded; each kind prefixed so they never meet each other. */
export function carriers(text: string): { emails: string[]; links: string[]; codes: string[] } {
  const emails = [...text.matchAll(EMAIL)].map((match) => foldCase(trimTrailing(match[0])));
  const urls = [...text.matchAll(URL)].map((match) => foldCase(trimTrailing(match[0])));
  const withoutEmails = text.replace(EMAIL, " ");
  const domains = [...withoutEmails.replace(URL, " ").matchAll(DOMAIN)].map((match) => foldCase(match[0]));
  const links = [...new Set([...urls.map(linkKey), ...domains])];
  const codes = [...withoutEmails.replace(URL, " ").matchAll(DIGITS)]
    .map((match) => trimTrailing(match[0]))
    .filter((token) => !YEAR_OR_TIME.test(token))
    .map((token) => foldCase(token).replace(/[.,\-/]/g, ""))
    // A code is long enough to identify something: five digits, or letters and digits together (IBAN "ch00evil").
    .filter((token) => (token.match(/\p{N}/gu) ?? []).length >= 5 || (token.length >= 6 && /\p{L}/u.test(token)));
  return { emails: [...new Set(emails)], links, codes: [...new Set(codes)] };
}

/** The text with its addresses and links taken out: words are compared on what is left (carriers are compared whole). */
export const withoutCarriers = (text: string) => text.replace(EMAIL, " ").replace(URL, " ").replace(DOMAIN, " ");

/** A link compared by host and path, so "https://evil.example/login" and "http://evil.example/login/" meet. */
export function linkKey(url: string): string {
  return foldCase(url)
    .replace(/^https?:\/\//, "")
    .replace(/^www\./, "")
    .replace(/\/+$/, "");
}

/** The host of a link key ("evil.example/login" -> "evil.example"). */
export const linkHost = (key: string) => key.split("/")[0]!;

/** Every run of QUOTE_WORDS consecutive words of a text, as one string each. */
export function quoteRuns(text: string): Set<string> {
  const list = words(text);
  const runs = new Set<string>();
  for (let index = 0; index + QUOTE_WORDS <= list.length; index++) runs.add(list.slice(index, index + QUOTE_WORDS).join(" "));
  return runs;
}

/**
 * Words a text writes as a proper name: capitalised where a sentence does not start, or in capitals ("Globex",
 * "EVIL"), folded and stemmed. Common words at a sentence's start are left out.
 */
export function properNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/[\p{L}][\p{L}\p{N}'-]*/gu)) {
    const token = match[0];
    if (!/^\p{Lu}/u.test(token) || token.length < 2) continue;
    const before = text.slice(Math.max(0, match.index - 3), match.index);
    // After a colon or a semicolon a capital is a name or a list's item ("Day 1: Machame gate"), not a sentence.
    const sentenceStart = match.index === 0 || /(?:[.!?\n"“(<>[\]]|^)\s*$/.test(before) || /^\s*$/.test(before);
    const capitals = token.length >= 3 && token === token.toUpperCase();
    if (sentenceStart && !capitals) continue;
    const folded = foldCase(token);
    if (STOPWORDS.has(folded)) continue;
    names.add(stem(folded));
  }
  return names;
}
