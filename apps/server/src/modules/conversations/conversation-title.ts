// About what a list card shows on one line; a title is cut at a word before this many characters.
const MAX_TITLE = 48;

/** Markdown and quoting marks that say nothing in a title. */
const MARKUP = /[`*_#>~[\]|]+/g;

/**
 * A short title from the first thing the user asked (decision 035): its first line, without Markdown marks or a
 * trailing question mark's lead-in punctuation, cut at a word to fit a card, its first letter upper-cased.
 * Empty when the message has no words.
 */
export function conversationTitle(message: string): string {
  const firstLine =
    message
      .split(/\r?\n/)
      .map((line) => line.replace(MARKUP, " ").replace(/\s+/g, " ").trim())
      .find((line) => /[\p{L}\p{N}]/u.test(line)) ?? "";
  let title = firstLine.replace(/[\s.,;:!?-]+$/u, "");
  if (title.length > MAX_TITLE) {
    const cut = title.slice(0, MAX_TITLE + 1);
    const lastSpace = cut.lastIndexOf(" ");
    title = `${(lastSpace > MAX_TITLE / 2 ? cut.slice(0, lastSpace) : cut.slice(0, MAX_TITLE)).replace(/[\s.,;:!?-]+$/u, "")}…`;
  }
  return title.charAt(0).toLocaleUpperCase() + title.slice(1);
}

/** The first line of a message, for a list's preview of the last message. */
export function firstLine(message: string, max = 120): string {
  const line = message
    .split(/\r?\n/)
    .map((part) => part.replace(MARKUP, " ").replace(/\s+/g, " ").trim())
    .find((part) => part.length > 0);
  if (!line) return "";
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
