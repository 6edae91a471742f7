/** Text in the form it is searched in (the knowledge index's: accents off, NFKC, CJK in pairs), lower-cased. */
export type FoldText = (text: string) => string;

const SNIPPET_WORDS_BEFORE = 6;
const SNIPPET_WORDS_AFTER = 14;
const MAX_SNIPPET_CHARS = 200;

/**
 * Matches messages against a query the way knowledge search does: every word of the query must be in the message,
 * however either is accented, cased or written in fullwidth. Answers null when nothing to search for is left.
 */
export function messageMatcher(query: string, fold: FoldText) {
  const terms = [
    ...new Set(
      fold(query)
        .split(/[^\p{L}\p{N}\p{M}]+/u)
        .filter(Boolean),
    ),
  ];
  if (terms.length === 0) return null;
  return {
    matches: (content: string) => {
      const folded = fold(content);
      return terms.every((term) => folded.includes(term));
    },
    /** A few words around the first word that holds a query word, with "…" where the message goes on. */
    snippet(content: string) {
      const words = content.split(/\s+/).filter(Boolean);
      const at = Math.max(
        0,
        words.findIndex((word) => terms.some((term) => fold(word).includes(term))),
      );
      const start = Math.max(0, at - SNIPPET_WORDS_BEFORE);
      const end = Math.min(words.length, at + SNIPPET_WORDS_AFTER + 1);
      let text = words.slice(start, end).join(" ");
      if (text.length > MAX_SNIPPET_CHARS) text = text.slice(0, MAX_SNIPPET_CHARS).trimEnd();
      const cut = text.length < words.slice(start, end).join(" ").length;
      return `${start > 0 ? "… " : ""}${text}${end < words.length || cut ? " …" : ""}`;
    },
  };
}
