/** The longest overlap the chunker carries from one chunk into the next is well under this (chunker.ts: 150). */
const MAX_OVERLAP = 400;

/**
 * Joins chunk texts back into one text as they arrive: where a chunk begins with the end of the text so far, that
 * part is not repeated. Linear in the text: the overlap is looked for in the last MAX_OVERLAP characters only, and
 * the parts are joined once at the end (comparing against the whole growing string flattened it at every chunk:
 * 93% of a 20 MB file's commitments scan, issue 52). With `maxChars`, `full` turns true once that much is held.
 */
export function createChunkJoiner(maxChars = Infinity) {
  const parts: string[] = [];
  let length = 0;
  let tail = "";
  return {
    get full() {
      return length >= maxChars;
    },
    /** Characters held so far (at most `maxChars`). */
    get length() {
      return Math.min(length, maxChars);
    },
    add(content: string) {
      if (length >= maxChars) return;
      let part = content;
      if (length > 0) {
        let overlap = 0;
        for (let size = Math.min(MAX_OVERLAP, content.length, tail.length); size > 0; size--) {
          if (tail.endsWith(content.slice(0, size))) {
            overlap = size;
            break;
          }
        }
        part = overlap > 0 ? content.slice(overlap) : `\n${content}`;
      }
      parts.push(part);
      length += part.length;
      tail = (tail + part).slice(-MAX_OVERLAP);
    },
    text: () => {
      const joined = parts.join("");
      return joined.length > maxChars ? joined.slice(0, maxChars) : joined;
    },
  };
}

/** Chunk texts back into one text (see createChunkJoiner); with `maxChars`, only that much of its start. */
export function joinChunks(contents: Iterable<string>, maxChars?: number): string {
  const joiner = createChunkJoiner(maxChars);
  for (const content of contents) {
    joiner.add(content);
    if (joiner.full) break;
  }
  return joiner.text();
}
