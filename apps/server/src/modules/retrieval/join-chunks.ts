/** The longest overlap the chunker carries from one chunk into the next is well under this (chunker.ts: 150). */
const MAX_OVERLAP = 400;

/** Chunk texts back into one text: where a chunk begins with the end of the text so far, that part is not repeated. */
export function joinChunks(contents: string[]): string {
  let text = "";
  for (const content of contents) {
    if (!text) {
      text = content;
      continue;
    }
    let overlap = 0;
    for (let length = Math.min(MAX_OVERLAP, content.length, text.length); length > 0; length--) {
      if (text.endsWith(content.slice(0, length))) {
        overlap = length;
        break;
      }
    }
    text += overlap > 0 ? content.slice(overlap) : `\n${content}`;
  }
  return text;
}
