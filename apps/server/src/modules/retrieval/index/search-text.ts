import type BetterSqlite3 from "better-sqlite3";

/** The SQL function the user tables' triggers call on every title and chunk text they index (lexical-index.ts). */
export const SEARCH_TEXT_FUNCTION = "sage_search_text";

const NOT_ASCII = /[\u0080-\uffff]/;
/**
 * Symbols that NFKC turns into letters (`™` is `TM`, `℃` is `°C`): they separate words for unicode61, so they are
 * dropped rather than normalised, and `Acme™` stays the word `acme`, not `acmetm`.
 */
const LETTERLIKE_SYMBOLS = /[\u20a8\u2100\u2101\u2103\u2105\u2106\u2109\u2116\u2120-\u2122\u213b]/g;
/** Letters that fold to others with no Unicode decomposition to strip (ICU's search folding does the same). */
const LETTER_FOLDS: Record<string, string> = {
  ß: "ss",
  ẞ: "ss",
  ı: "i",
  İ: "i",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  ø: "o",
  Ø: "o",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  ł: "l",
  Ł: "l",
  ħ: "h",
  Ħ: "h",
  ŧ: "t",
  Ŧ: "t",
  þ: "th",
  Þ: "th",
  ς: "σ",
};
/**
 * Marks that only accent a letter: the combining diacritics (é = e + U+0301 after NFD), Hebrew points and Arabic
 * vowel signs, hamza and tatweel. Marks that are part of a letter stay: Devanagari and Thai vowel signs, the
 * Japanese voicing marks (が is not か).
 */
const ACCENTS =
  // eslint-disable-next-line no-misleading-character-class -- the marks are matched one by one, on purpose
  /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u0640\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/g;
/** Scripts written without spaces between words, for which ICU has a word dictionary. */
const SPACELESS_RUN =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}][\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{M}]*/gu;
const SPACELESS = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff\uaa60-\uaa7f\ua9e0-\ua9ff]/;

const KEEP = 0;
const FOLD = 1;
const PAIRED = 2;
/** Per UTF-16 unit of text already in NFKC: what searchText does with it, from Unicode's own data, made on first use. */
let kinds: Uint8Array | undefined;
const folds = new Map<number, string>();
function characterKinds(): Uint8Array {
  if (kinds) return kinds;
  kinds = new Uint8Array(0x10000);
  // Accented letters (precomposed after NFKC) and lone accents; they occur below U+3000 and among the half marks.
  for (let code = 0x80; code < 0x3000; code++) foldable(code);
  for (let code = 0xfe20; code < 0xfe30; code++) foldable(code);
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005-\u3007\u30fc]/u;
  // The unified ideographs (extension A and the main block) and the Hangul syllables are whole blocks of one script.
  kinds.fill(PAIRED, 0x3400, 0x4dc0).fill(PAIRED, 0x4e00, 0xa000).fill(PAIRED, 0xac00, 0xd7a4);
  for (let code = 0x1100; code < 0x10000; code++) {
    if (kinds[code] === KEEP && (code < 0xd800 || code > 0xdfff) && cjk.test(String.fromCharCode(code))) kinds[code] = PAIRED;
  }
  return kinds;
}
function foldable(code: number) {
  const character = String.fromCharCode(code);
  const stripped = LETTER_FOLDS[character] ?? character.normalize("NFD").replace(ACCENTS, "").normalize("NFC");
  // Ǿ is Ø with an accent: Ø is then folded too.
  const folded = [...stripped].map((letter) => LETTER_FOLDS[letter] ?? letter).join("");
  if (folded === character) return;
  kinds![code] = FOLD;
  folds.set(code, folded);
}
/** Han beyond the BMP (extensions B-H, U+20000-U+3FFFF) starts with one of these high surrogates. */
const isAstralHan = (code: number) => code >= 0xd840 && code <= 0xd8bf;

/** ä, ö, ü as German writes them without the dots, "Rückmeldung" as "Rueckmeldung" (ß is folded to ss anyway). */
export const germanSpelling = (text: string) =>
  text.normalize("NFC").replace(/[äÄöÖüÜ]/g, (letter) => ({ ä: "ae", Ä: "Ae", ö: "oe", Ö: "Oe", ü: "ue", Ü: "Ue" })[letter]!);

let wordSegmenter: Intl.Segmenter | undefined;

/**
 * The form in which text is indexed and queried, so that a word is found however it was typed: NFKC (fullwidth
 * `ＧＨＱ` is `GHQ`, `ﬁ` is `fi`), `ß` as `ss` and the like, accents removed (`Größe`, `Grösse` and `grosse` are one
 * word), and text written without spaces cut into pieces a query can match (CJK as character pairs, Thai and its
 * neighbours into dictionary words). FTS5's `porter unicode61` then lower-cases, splits and stems the result. ASCII
 * text is returned as it is, so English is indexed exactly as before.
 */
export function searchText(text: string): string {
  if (!NOT_ASCII.test(text)) return text;
  let folded = foldAndPair(text.replace(LETTERLIKE_SYMBOLS, " ").normalize("NFKC"));
  if (SPACELESS.test(folded)) folded = folded.replace(SPACELESS_RUN, (run) => ` ${dictionaryWords(run)} `);
  return folded;
}

/**
 * One pass over NFKC text: accented letters without their accents, and each run of CJK characters as its
 * overlapping pairs (`ゾルゲと尾崎` -> `ゾル ルゲ ゲと と尾 尾崎`), the way Lucene's CJK analyser indexes them: the same
 * pairs whatever surrounds the run, so a query's run matches the text's. A dictionary segmenter cuts the same name
 * differently by context (`尾崎秀実の` -> 尾崎|秀実, `尾崎秀実は` -> 尾崎|秀|実は).
 */
function foldAndPair(text: string): string {
  const table = characterKinds();
  const parts: string[] = [];
  let copiedTo = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const kind = isAstralHan(code) ? PAIRED : table[code];
    if (kind === KEEP) {
      index++;
      continue;
    }
    parts.push(text.slice(copiedTo, index));
    if (kind === FOLD) {
      parts.push(folds.get(code)!);
      copiedTo = ++index;
      continue;
    }
    // `first` and `second` start the previous two characters of the run.
    let first = -1;
    let second = index;
    index += isAstralHan(code) ? 2 : 1;
    parts.push(" ");
    while (index < text.length) {
      const unit = text.charCodeAt(index);
      const width = isAstralHan(unit) ? 2 : table[unit] === PAIRED ? 1 : 0;
      if (width === 0) break;
      first = second;
      second = index;
      index += width;
      parts.push(text.slice(first, index), " ");
    }
    if (first === -1) parts.push(text.slice(second, index), " ");
    copiedTo = index;
  }
  if (copiedTo === 0) return text;
  parts.push(text.slice(copiedTo));
  return parts.join("");
}

function dictionaryWords(run: string): string {
  wordSegmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  return [...wordSegmenter.segment(run)].map((piece) => piece.segment).join(" ");
}

/** Lets this connection's SQL (the user tables' triggers) call searchText. Every connection that writes chunks needs it. */
export function registerSearchText(sqlite: BetterSqlite3.Database): void {
  sqlite.function(SEARCH_TEXT_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === "string" ? searchText(text) : text));
}
