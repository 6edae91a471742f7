import { foldCase } from "./text.ts";

/**
 * Whether a short text holds a secret SAGE must never remember: a password, passphrase, PIN, door or alarm code,
 * card or account number, API key or one-time code, in English, German, French, Spanish or Italian. Text is
 * compared folded (lower case, no accents), so "Passwort", "passwört" and "PASSWORT" read alike.
 *
 * A secret is a naming word followed by a value: "password hunter2", "passwort ist hunter2", "door code 4711",
 * "le code de la porte est 4711". A naming word alone ("reset my password every 90 days") is not a secret.
 */

/**
 * Words that name a secret, matched as whole words on folded text (spaces match any run of spaces). A strong name
 * makes the next word after a link a secret ("my password is swordfish"); a weak one ("pin", "token", "clave")
 * names a secret only when its value looks like one ("PIN 1234", but not "the pin is on the card").
 */
const STRONG_NAMES = [
  // English
  "password",
  "passwd",
  "passcode",
  "passphrase",
  "pass phrase",
  "login phrase",
  "secret phrase",
  "recovery phrase",
  "seed phrase",
  "recovery code",
  "backup code",
  "security code",
  "verification code",
  "confirmation code",
  "one time code",
  "one-time code",
  "access code",
  "door code",
  "gate code",
  "alarm code",
  "entry code",
  "lock code",
  "safe code",
  "api key",
  "api-key",
  "apikey",
  "secret key",
  "private key",
  "access key",
  "access token",
  "auth token",
  "bearer token",
  "wifi key",
  "wi-fi key",
  "network key",
  "card number",
  "credit card number",
  "cvv",
  "cvc",
  "account number",
  "iban",
  "routing number",
  "sort code",
  "social security number",
  "ssn",
  // German
  "passwort",
  "kennwort",
  "zugangswort",
  "losungswort",
  "geheimzahl",
  "geheimnummer",
  "pin-code",
  "pincode",
  "turcode",
  "tuercode",
  "torcode",
  "alarmcode",
  "zugangscode",
  "sicherheitscode",
  "bestatigungscode",
  "einmalcode",
  "api-schlussel",
  "kartennummer",
  "kontonummer",
  "kreditkartennummer",
  "wlan-schlussel",
  "wlan-passwort",
  // French
  "mot de passe",
  "mdp",
  "phrase secrete",
  "phrase de passe",
  "code pin",
  "code secret",
  "digicode",
  "code de porte",
  "code de la porte",
  "code d'acces",
  "code de securite",
  "code de verification",
  "code de confirmation",
  "code a usage unique",
  "cle api",
  "cle secrete",
  "cle privee",
  "cle wifi",
  "numero de carte",
  "numero de compte",
  // Spanish and Italian
  "contrasena",
  "codigo de acceso",
  "codigo de seguridad",
  "numero de tarjeta",
  "numero de cuenta",
  "parola d'ordine",
  "codice di accesso",
  "codice segreto",
  "numero di carta",
  "numero di conto",
];
const WEAK_NAMES = [
  "pin",
  "pin code",
  "pin number",
  "otp",
  "2fa code",
  "mfa code",
  "tan",
  "token",
  "secret",
  "combination",
  "credentials",
  "zugangsdaten",
  "schlussel",
  "identifiants",
  "rib",
  "clave",
];

/** What may stand between the name and the value: "is", "ist", "est", "=", "is set to", "lautet". */
const LINKS = ["is", "are", "was", "=", ":", "-", "is set to", "reads", "ist", "lautet", "heisst", "war", "est", "c'est", "es", "e", "will be"];

/** Short words that may qualify a name before its value: "of my bank", "for the office", "du bureau", "fur die bank". */
const QUALIFIERS = [
  "of",
  "for",
  "to",
  "at",
  "in",
  "on",
  "de",
  "du",
  "des",
  "la",
  "le",
  "l'",
  "der",
  "die",
  "das",
  "vom",
  "von",
  "fur",
  "zum",
  "zur",
  "my",
  "our",
  "the",
  "his",
  "her",
  "their",
  "mon",
  "ma",
  "mes",
  "notre",
  "meine",
  "mein",
  "meines",
  "unser",
  "unsere",
  "meiner",
  "meinem",
  "furs",
  "ins",
  "im",
  "am",
  "beim",
  "dem",
  "den",
  "unseres",
  "bank",
  "home",
  "office",
  "house",
  "wifi",
  "wi-fi",
  "wlan",
  "work",
  "email",
  "mail",
  "account",
  "bureau",
  "maison",
  "buro",
  "hause",
  "online",
  "banking",
  "login",
  "card",
  "carte",
  "karte",
  "front",
  "back",
  "main",
  "garage",
  "building",
  "immeuble",
  "mi",
  "il",
  "del",
  "della",
];

const fold = (text: string) =>
  foldCase(text)
    .replace(/ß/g, "ss")
    .replace(/[’`]/g, "'")
    .replace(/(^|[^\p{L}])([cdjlmnst]|qu)'(?=\p{L})/gu, "$1$2' ");

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
const alternatives = (words: readonly string[]) =>
  [...new Set(words.map(fold))]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|");

/** name, qualifiers, an optional link (captured), then the value (captured). */
const namedValue = (names: readonly string[]) =>
  new RegExp(
    String.raw`(?:^|[^\p{L}\p{N}])(?:${alternatives(names)})(?![\p{L}\p{N}])(?:\s+(?:${alternatives(QUALIFIERS)})(?![\p{L}\p{N}])){0,4}\s*(?:(${alternatives(LINKS)})(?![\p{L}\p{N}])\s*)?(\S+)`,
    "giu",
  );
const STRONG = namedValue(STRONG_NAMES);
const WEAK = namedValue(WEAK_NAMES);

/** Tokens whose shape alone is a key: vendors' API keys, private key blocks, JSON web tokens. */
const KEY_SHAPES = [
  /\b(?:sk|pk|rk)[-_][A-Za-z0-9_-]{16,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/,
];

const VALUE_LIKE = /[\p{N}]|[^\p{L}\s'".,;!?()]|^["'«“].+["'»”]$/u;
/** Words after a link that are no value ("the password is strong", "mon mot de passe est dans le carnet"). */
const NOT_VALUES = new Set([
  "a",
  "an",
  "the",
  "my",
  "your",
  "his",
  "her",
  "our",
  "their",
  "not",
  "never",
  "always",
  "in",
  "on",
  "at",
  "with",
  "stored",
  "saved",
  "kept",
  "written",
  "changed",
  "reset",
  "required",
  "needed",
  "expired",
  "secret",
  "private",
  "ein",
  "eine",
  "der",
  "die",
  "das",
  "nicht",
  "im",
  "auf",
  "un",
  "une",
  "le",
  "la",
  "les",
  "pas",
  "dans",
  "sur",
  "el",
  "los",
  "no",
  "il",
  "lo",
  "non",
  "nel",
  "sul",
  "every",
  "each",
  "from",
  "by",
  "same",
  "different",
  "strong",
  "weak",
  "long",
  "short",
  "new",
  "old",
  "correct",
  "wrong",
  "too",
  "very",
  "too",
  "also",
  "still",
  "now",
  "sehr",
  "noch",
  "tres",
  "encore",
  "toujours",
  "immer",
  "important",
  "wichtig",
  "unknown",
  "forgotten",
  "vergessen",
  "oublie",
]);

const trimValue = (value: string) => value.replace(/^[("'«“]+|[)"'»”.,;!?]+$/g, "");

/** A Luhn-valid run of 13-19 digits (a payment card), spaces or dashes allowed between groups. */
function hasCardNumber(text: string): boolean {
  for (const match of text.matchAll(/\b\d(?:[ -]?\d){12,18}\b/g)) {
    const digits = match[0].replace(/\D/g, "");
    let sum = 0;
    for (let index = 0; index < digits.length; index++) {
      let digit = Number(digits[digits.length - 1 - index]);
      if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return true;
  }
  return false;
}

/** An IBAN whose check digits are right (ISO 13616: the number mod 97 is 1). */
function hasIban(text: string): boolean {
  for (const match of text.toUpperCase().matchAll(/\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]){11,30}\b/g)) {
    const iban = match[0].replace(/\s/g, "");
    const rearranged = iban.slice(4) + iban.slice(0, 4);
    let remainder = 0;
    for (const char of rearranged) {
      const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
      for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
    }
    if (remainder === 1) return true;
  }
  return false;
}

export function looksLikeSecret(content: string): boolean {
  if (KEY_SHAPES.some((pattern) => pattern.test(content))) return true;
  if (hasCardNumber(content) || hasIban(content)) return true;
  const folded = fold(content);
  for (const match of folded.matchAll(STRONG)) {
    const value = trimValue(match[2] ?? "");
    if (!value) continue;
    if (VALUE_LIKE.test(value)) return true;
    if (match[1] && value.length >= 3 && !NOT_VALUES.has(value)) return true;
  }
  for (const match of folded.matchAll(WEAK)) {
    const value = trimValue(match[2] ?? "");
    if (value && /\p{N}/u.test(value) && /^[\p{L}\p{N}-]{3,}$/u.test(value)) return true;
  }
  return false;
}
