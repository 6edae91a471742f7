import type { PendingEntry } from "./pending-entry";

/** A suggestion is a line, not a page: cut at a word to this many characters. */
const MAX_LENGTH = 160;
/** Text files are read this far for their title, heading or first sentence. */
const READ_BYTES = 64 * 1024;
const TEXT_EXTENSIONS = new Set(["txt", "md", "csv", "html", "htm", "eml", "ics"]);

const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";

function cut(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= MAX_LENGTH) return line;
  const head = line.slice(0, MAX_LENGTH - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > MAX_LENGTH / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** "q3_board-pack.final.pdf" -> "Q3 board pack final". */
export function nameSuggestion(name: string): string {
  const words = name
    .replace(/\.[^.]+$/, "")
    .replace(/[_\-.]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return cut(words.charAt(0).toUpperCase() + words.slice(1));
}

/**
 * A text's own summary line: an HTML page's title, a mail's subject, else the first Markdown heading, else the
 * first sentence of the first line with words. Empty when the text has none.
 */
export function textSuggestion(text: string): string {
  const title = /<title[^>]*>([^<]+)<\/title>/i.exec(text)?.[1] ?? /^subject:\s*(.+)$/im.exec(text)?.[1] ?? /^summary:\s*(.+)$/im.exec(text)?.[1];
  if (title?.trim()) return cut(title);
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text)?.[1];
  if (heading?.trim()) return cut(heading);
  const plain = text.replace(/<[^>]+>/g, " ");
  const firstLine = plain.split(/\r?\n/).find((line) => /\p{L}/u.test(line)) ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(firstLine.trim())?.[1] ?? firstLine;
  return cut(sentence);
}

/**
 * What the describe step pre-fills (issue 33 item 3): from a text file's own words, else from its name; a folder
 * by its name and first files; a note by its first sentence; a link by its address. The user edits or keeps it.
 */
export async function suggestDescription(entry: PendingEntry): Promise<string> {
  if (entry.kind === "note") return textSuggestion(entry.text);
  if (entry.kind === "url") return `Web page: ${entry.url}`;
  if (entry.kind === "folder") {
    const names = entry.files.slice(0, 3).map(({ file }) => file.name);
    const more = entry.files.length > 3 ? ", …" : "";
    return cut(`${nameSuggestion(entry.name)}: ${entry.files.length} ${entry.files.length === 1 ? "file" : "files"} (${names.join(", ")}${more})`);
  }
  if (TEXT_EXTENSIONS.has(extensionOf(entry.file.name))) {
    try {
      const own = textSuggestion(await entry.file.slice(0, READ_BYTES).text());
      if (own) return own;
    } catch {
      // Unreadable in the browser: the name stands in.
    }
  }
  return nameSuggestion(entry.file.name);
}
