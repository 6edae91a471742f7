/** A count with its noun in the right number: "1 chunk", "0 chunks", "3 files". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** Text compared without case or accents ("Résumé" and "resume" alike): NFKD, combining marks dropped, lower case. */
export const foldCase = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
