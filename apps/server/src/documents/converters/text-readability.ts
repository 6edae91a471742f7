/**
 * Whether extracted text reads as words. A PDF font without a Unicode map gives glyph codes instead of letters
 * (`3HQČåQt SURVWĜHGN` for "Peněžní prostředky"): letters of one script, but in shapes no language writes. The
 * test is language-neutral: each token must look like a word, a number or a short code (one script, a usual case
 * pattern, a vowel in longer Latin words), and Latin text as a whole must have a usual share of vowels.
 */

/** Below this many characters (of words, not numbers) a text says too little to judge: a page number, a title. */
export const MIN_LETTERS_TO_JUDGE = 20;
const MIN_READABLE_SHARE = 0.6;
/** Natural Latin-script text runs 30-50% vowels (y counted); shifted glyph codes fall far below. */
const MIN_VOWEL_SHARE = 0.2;

const BAD_CHARACTER = /[\p{Cc}\p{Co}\p{Cn}\p{Cs}\uFFFD]/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const NUMBER = /^[+\-−]?\p{Sc}?\d[\d.,:/\-–'’]*(?:%|‰|\p{Sc}|\p{L}{1,3})?$/u;
const SHORT_CODE = /^(?:\p{L}{1,4}\d{1,4}\p{L}?|\d{1,4}\p{L}{1,3}\d{0,2})$/u;
const CASE_SHAPES = [
  /^\p{Lu}?[\p{Ll}\p{M}]+$/u, // word, Word
  /^[\p{Lu}\p{M}]+[\p{Ll}]?$/u, // WORD, PDFs
  /^\p{Lu}?[\p{Ll}\p{M}]+(?:\p{Lu}[\p{Ll}\p{M}]+){1,2}$/u, // PowerPoint, McDonald
  /^\p{Ll}\p{Lu}[\p{Ll}\p{M}]+$/u, // iPhone, eBay
];
const CASED_SCRIPTS = ["Latin", "Cyrillic", "Greek", "Armenian"] as const;
const OTHER_SCRIPTS = ["Arabic", "Hebrew", "Devanagari", "Bengali", "Thai", "Hangul", "Georgian", "Tamil", "Ethiopic"] as const;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{M}ー々〆]+$/u;
/** Scripts written without spaces between words (Korean's words sit beside digits and Latin with no space too). */
const SPACELESS_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const SCRIPT_TESTS = [...CASED_SCRIPTS, ...OTHER_SCRIPTS].map((script) => ({ script, test: new RegExp(`^[\\p{Script=${script}}\\p{M}]+$`, "u") }));

export interface TextReadability {
  /** Characters in the tokens judged (numbers and lone punctuation are not). */
  judged: number;
  /** Share of those in tokens that look like words, 0-1. */
  readableShare: number;
  /** Share of vowels among Latin letters (null when there are too few to say). */
  vowelShare: number | null;
}

export function measureReadability(text: string): TextReadability {
  let readable = 0;
  let unreadable = 0;
  for (const token of tokens(text)) {
    const verdict = judgeToken(token);
    if (verdict === "readable") readable += token.length;
    else if (verdict === "unreadable") unreadable += token.length;
  }
  const latin =
    text
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/\p{Script=Latin}/gu) ?? [];
  const vowels = latin.filter((letter) => "aeiouy".includes(letter)).length;
  const judged = readable + unreadable;
  // Vowels are counted only where Latin is the text's script: a Japanese page's acronyms (PDF, GHQ) have few.
  const latinLed = latin.length >= MIN_LETTERS_TO_JUDGE * 2 && latin.length * 2 >= letterCount(text);
  return { judged, readableShare: judged === 0 ? 1 : readable / judged, vowelShare: latinLed ? vowels / latin.length : null };
}

/**
 * Words split at spaces; text in a script written without spaces (Japanese, Chinese) is cut further where it meets
 * another script, so 「GHQ」の資料（第3版） is judged as CJK words, a Latin acronym and a number, as a reader sees it.
 * Fullwidth forms are folded first (ＧＨＱ and ３ are G, H, Q and 3).
 */
function* tokens(text: string): Generator<string> {
  // Only the fullwidth forms are folded: NFKC over everything would turn a stray spacing accent (˛, a wrong code
  // page's tell) into a space and a combining mark, and the garbled word around it would pass for two words.
  for (const token of text
    .normalize("NFC")
    .replace(/[\uFF01-\uFF5E]/g, (form) => form.normalize("NFKC"))
    .split(/\s+/)) {
    if (!token) continue;
    if (SPACELESS.test(token)) yield* token.match(SPACELESS_RUN) ?? [];
    else yield token;
  }
}

/** True when the text has enough letters to judge and most of it is not words (e.g. glyph codes from a font without a Unicode map). */
export function isMostlyUnreadable(text: string): boolean {
  const { judged, readableShare, vowelShare } = measureReadability(text);
  if (judged < MIN_LETTERS_TO_JUDGE) return false;
  return readableShare < MIN_READABLE_SHARE || (vowelShare !== null && vowelShare < MIN_VOWEL_SHARE);
}

export function letterCount(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

type Verdict = "readable" | "unreadable" | "neutral";

/** Letters joined or stretched inside a word: the tatweel of justified Arabic, ZWNJ and ZWJ of Persian and Indic script. */
const IN_WORD_JOINERS = /[\u0640\u200c\u200d]/g;

function judgeToken(token: string): Verdict {
  if (BAD_CHARACTER.test(token)) return "unreadable";
  const core = token.replace(IN_WORD_JOINERS, "").replace(EDGE_PUNCTUATION, "");
  if (!core) return token.length > 2 ? "unreadable" : "neutral";
  if (NUMBER.test(core) || /:\/\/|^www\.|@/.test(core)) return "neutral";
  if (SHORT_CODE.test(core)) return "readable";
  const parts = core.split(/[-'’./&·_:@=?#+,，、。・]+/).filter(Boolean);
  return parts.length > 0 && parts.every(isWordPart) ? "readable" : "unreadable";
}

function isWordPart(part: string): boolean {
  if (/^\d+$/.test(part)) return true;
  if (CJK.test(part)) return true;
  const script = SCRIPT_TESTS.find(({ test }) => test.test(part))?.script;
  if (!script) return false;
  if (!(CASED_SCRIPTS as readonly string[]).includes(script)) return true;
  if (!CASE_SHAPES.some((shape) => shape.test(part))) return false;
  if (script !== "Latin" || part.length < 4) return true;
  return /[aeiouy]/.test(part.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase());
}

const SCRIPT_GROUPS = ["Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Hangul", "Thai"].map((script) => ({
  script,
  test: new RegExp(`\\p{Script=${script}}`, "u"),
}));
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The script most of a text's letters are written in (Japanese and Chinese count as one, "CJK"), or null without letters. */
export function mainScript(text: string): string | null {
  const counts = new Map<string, number>();
  for (const letter of text.match(/\p{L}/gu) ?? []) {
    const script = CJK_LETTER.test(letter) ? "CJK" : (SCRIPT_GROUPS.find(({ test }) => test.test(letter))?.script ?? "other");
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [script, count] of counts) if (best === null || count > counts.get(best)!) best = script;
  return best;
}
