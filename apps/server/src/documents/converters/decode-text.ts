import chardet from "chardet";
import iconv from "iconv-lite";
import { measureReadability } from "./text-readability.ts";

/** Enough text to tell encodings apart: chardet took 1-1.6 s over 64 KB on a loaded machine, 40-160 ms over 16 KB. */
const SAMPLE_BYTES = 16 * 1024;
/** chardet knows no DOS code pages; CP866 Russian text (DOS, old Windows consoles) is tried beside its guesses. */
const ALWAYS_TRIED = ["windows-1252", "ibm866"];

/**
 * Decodes text bytes (decision 033): a byte-order mark decides; else UTF-16 without a BOM is recognised by its zero
 * bytes; else valid UTF-8 is UTF-8 whatever a page declares (a misleading charset is usually a template's default);
 * else the declared charset (HTML meta, XML declaration, HTTP header), chardet's guesses, Windows-1252 and CP866 are
 * each tried, and the one whose text reads most like words wins (the declared one, then chardet's order, on a tie).
 */
export function decodeText(bytes: Uint8Array, declared?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const sample = bytes.subarray(0, 4096);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < sample.length; index++) {
    if (sample[index] !== 0) continue;
    if (index % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const half = sample.length / 2;
  if (half > 0 && oddZeros > half * 0.3 && evenZeros < half * 0.05) return new TextDecoder("utf-16le").decode(bytes);
  if (half > 0 && evenZeros > half * 0.3 && oddZeros < half * 0.05) return new TextDecoder("utf-16be").decode(bytes);
  // ISO-2022 encodings are 7-bit, so valid UTF-8 too: their designations (ESC $ or ESC () send them to detection;
  // the ESC [ of a coloured log does not.
  if (!hasIso2022Designation(bytes)) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      // Not UTF-8: a legacy encoding.
    }
  }
  return decodeAs(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), likeliestEncoding(bytes, declared));
}

/** iconv-lite knows most encodings; ISO-2022-JP and a few other WHATWG ones only Node's TextDecoder does. */
function decodeAs(bytes: Buffer, name: string): string {
  return iconv.encodingExists(name) ? iconv.decode(bytes, name) : new TextDecoder(name).decode(bytes);
}

function isKnownEncoding(name: string): boolean {
  if (iconv.encodingExists(name)) return true;
  try {
    new TextDecoder(name);
    return true;
  } catch {
    return false;
  }
}

function hasIso2022Designation(bytes: Uint8Array): boolean {
  for (let index = bytes.indexOf(0x1b); index >= 0 && index < bytes.length - 1; index = bytes.indexOf(0x1b, index + 1)) {
    if (bytes[index + 1] === 0x24 || bytes[index + 1] === 0x28) return true;
  }
  return false;
}

/** The candidate whose decoded sample has the largest share of word-like text. */
function likeliestEncoding(bytes: Uint8Array, declared: string | undefined): string {
  const sample = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SAMPLE_BYTES));
  const guesses = chardet.analyse(sample).map((match) => match.name);
  const candidates = [...new Set([declared, ...guesses, ...ALWAYS_TRIED].filter((name): name is string => !!name && isKnownEncoding(name)))];
  let best = { name: "windows-1252", share: -1 };
  for (const name of candidates) {
    const share = measureReadability(decodeAs(sample, name)).readableShare;
    if (share > best.share) best = { name, share };
  }
  return best.name;
}

/** The charset a page or XML file names for itself in its first bytes: `<meta charset>`, http-equiv or `<?xml encoding?>`. */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString("latin1");
  return (/^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)/i.exec(head) ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head))?.[1];
}

/** The charset parameter of a Content-Type header ("text/html; charset=windows-1251"). */
export function contentTypeCharset(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
}
