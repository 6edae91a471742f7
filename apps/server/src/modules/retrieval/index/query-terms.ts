import { stemmer } from "stemmer";
import { germanSpelling, searchText } from "./search-text.ts";

/** Words too common to say anything about relevance; dropping them keeps OR queries small and sharp. */
const STOPWORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both " +
    "but by can could did do does doing down during each few for from further had has have having he her here hers " +
    "him his how i if in into is it its itself just me more most my no nor not of off on once only or other our ours " +
    "out over own same she should so some such than that the their theirs them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you " +
    "your yours also may might must shall via vs"
  ).split(" "),
);

/** Most distinct terms a query may carry into the index; bounds the work of one search. */
export const MAX_QUERY_TERMS = 48;

/** unicode61's word characters in the user tables (lexical-index.ts): letters, digits, private use and marks. */
const WORD = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/**
 * The query in the form the index holds text (searchText: folded, CJK as character pairs), split the way FTS5's
 * unicode61 tokenizer splits it, lower-cased, without stopwords and duplicates. Returns the terms in first-seen order.
 */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  const add = (term: string) => {
    if (STOPWORDS.has(term) || seen.has(term) || terms.length >= MAX_QUERY_TERMS) return;
    seen.add(term);
    terms.push(term);
  };
  // Lower case first: searchText folds what lower-casing makes (final ς, the i and dot of İ).
  const lower = text.toLowerCase();
  for (const match of searchText(lower).matchAll(WORD)) {
    add(match[0]);
    // German written without umlauts ("rueckmeldung") finds the word written with them, which the index holds
    // folded ("ruckmeldung"); a variant the index lacks weighs nothing (chooseTerms keeps present terms only).
    const variant = umlautsFolded(match[0]);
    if (variant && stemmer(variant) !== stemmer(match[0])) add(variant);
  }
  // ...and a query with umlauts finds the word written without them ("Rückmeldung" finds "Rueckmeldung").
  if (UMLAUT.test(lower)) for (const match of searchText(germanSpelling(lower)).matchAll(WORD)) add(match[0]);
  return terms;
}

const UMLAUT = /[äöü]|[aou]\u0308/;
/** "rueckmeldung" -> "ruckmeldung": ae, oe, ue before a consonant read back as the dotted letter, folded; null if none. */
function umlautsFolded(term: string): string | null {
  const folded = term.replace(/([aou])e(?=[b-df-hj-np-tv-z])/g, "$1");
  return folded !== term && folded.length >= 3 ? folded : null;
}

/** The index form of a term (FTS5's porter tokenizer stems with Porter's original algorithm). */
export function indexTerm(term: string): string {
  return stemmer(term);
}

/**
 * Every word of a text as the index holds it, in order: searchText's form split like `queryTerms`, stopwords kept
 * (they count in a text's length), each stemmed. PostgreSQL's lexical index (pg-lexical-index.ts) is filled with
 * these, so both engines see the same terms.
 */
export function indexedWords(text: string): string[] {
  return Array.from(searchText(text.toLowerCase()).matchAll(WORD), (match) => indexTerm(match[0]));
}

/** An FTS5 MATCH expression that ORs the terms, each quoted so no term is read as syntax. */
export function ftsOrQuery(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}
