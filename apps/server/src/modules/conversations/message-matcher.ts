/** Text in the form it is searched in (the knowledge index's: accents off, NFKC, CJK in pairs), lower-cased. */
export type FoldText = (text: string) => string;

const SNIPPET_WORDS_BEFORE = 6;
const SNIPPET_WORDS_AFTER = 14;
const MAX_SNIPPET_CHARS = 200;

/**
 * Matches messages against a query the way knowledge search does: every word of the query must be in the message,
 * however either is accented, cased or written in fullwidth. Answers null when nothing to search for is left.
 */
export function messageMatcher(query: string, fold: FoldText, germanSpelling: (text: string) => string = (text) => text) {
  const words = (text: string) =>
    fold(text)
      .split(/[^\p{L}\p{N}\p{M}]+/u)
      .filter(Boolean);
  const typed = [...new Set(words(query))];
  if (typed.length === 0) return null;
  // Each word with its German spelling ("Rückmeldung" and "Rueckmeldung"): either found in either form of the text.
  const german = words(germanSpelling(query));
  const terms = typed.map((term, index) => [...new Set([term, german.length === typed.length ? german[index]! : term])]);
  const forms = (content: string) => {
    const folded = fold(content);
    return UMLAUT.test(content) ? [folded, fold(germanSpelling(content))] : [folded];
  };
  const holds = (text: string) => terms.some((alternatives) => alternatives.some((term) => forms(text).some((form) => form.includes(term))));
  return {
    matches: (content: string) => {
      const texts = forms(content);
      return terms.every((alternatives) => alternatives.some((term) => texts.some((form) => form.includes(term))));
    },
    /** A few words around the first word that holds a query word, with "…" where the message goes on. */
    snippet(content: string) {
      const all = content.split(/\s+/).filter(Boolean);
      const at = Math.max(0, all.findIndex(holds));
      const start = Math.max(0, at - SNIPPET_WORDS_BEFORE);
      const end = Math.min(all.length, at + SNIPPET_WORDS_AFTER + 1);
      let text = all.slice(start, end).join(" ");
      if (text.length > MAX_SNIPPET_CHARS) text = text.slice(0, MAX_SNIPPET_CHARS).trimEnd();
      const cut = text.length < all.slice(start, end).join(" ").length;
      return `${start > 0 ? "… " : ""}${text}${end < all.length || cut ? " …" : ""}`;
    },
  };
}

const UMLAUT = /[äöüÄÖÜ]|[aouAOU]\u0308/;
