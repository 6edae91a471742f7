import type { DirectoryEntry } from "../people/people.module.ts";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Whole words only: "Ann" does not name "Annual review". */
const names = (title: string, words: string) =>
  words.trim().length >= 3 && new RegExp(`(^|[^\\p{L}\\p{N}])${escape(words.trim())}($|[^\\p{L}\\p{N}])`, "iu").test(title);

/**
 * The addresses of the people an event's title names (issue 53: "a title naming a person or company"): by full name,
 * by organisation, or by a first name only one of the user's people has ("Lunch with Anna"). Hidden people are left out.
 */
export function namedInTitle(title: string, directory: Map<string, DirectoryEntry>): string[] {
  if (!title.trim()) return [];
  const entries = [...directory.entries()].filter(([, entry]) => !entry.hidden);
  const firstNames = new Map<string, Set<number>>();
  for (const [, entry] of entries) {
    const first = entry.name?.trim().split(/\s+/)[0]?.toLowerCase();
    if (first) firstNames.set(first, (firstNames.get(first) ?? new Set()).add(entry.personId));
  }
  return entries
    .filter(([, entry]) => {
      const name = entry.name?.trim() ?? "";
      const first = name.split(/\s+/)[0] ?? "";
      return (
        (name && names(title, name)) ||
        (entry.organisation && names(title, entry.organisation)) ||
        (first !== name && firstNames.get(first.toLowerCase())?.size === 1 && names(title, first))
      );
    })
    .map(([address]) => address);
}
