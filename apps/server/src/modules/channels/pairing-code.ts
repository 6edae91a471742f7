import { createHash, randomInt } from "node:crypto";

/** Letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const LENGTH = 8;
/** How long a code pairs: long enough to open the app and send it, short enough to be worthless later. */
export const PAIRING_TTL_MS = 15 * 60_000;
/** Wrong codes one chat may send before it is ignored until a new code is made. */
export const MAX_WRONG_CODES = 5;

/** A fresh one-time code: 8 characters, 39 bits, good for 15 minutes and 5 wrong tries per chat (decision 076). */
export function newPairingCode(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

/** The code as stored: only its hash, bound to the channel (a database copy does not reveal a live code). */
export const pairingHash = (channelId: number, code: string) => createHash("sha256").update(`${channelId}:${code.toUpperCase()}`).digest("hex");

/** The code a message carries: the code alone, or `/start CODE` (a Telegram deep link), any case; null otherwise. */
export function codeIn(text: string): string | null {
  const match = /^\s*(?:\/start(?:@\w+)?\s+)?([A-Za-z0-9]{8})\s*$/.exec(text);
  return match ? match[1]!.toUpperCase() : null;
}

/** Whether a message looks like an attempt at a code (counted as a wrong code when it is not the right one). */
export const looksLikeCode = (text: string) => codeIn(text) !== null || /^\s*\/start\s+\S/.test(text);
