import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinChunks } from "./join-chunks.ts";

/** The chunker's shape: windows of `size` characters, each repeating the last `overlap` of the one before. */
function chunksOf(text: string, size = 1000, overlap = 150): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(Math.max(0, start - overlap), start + size));
  return chunks;
}

/** The earlier joiner, kept as the reference: compares each chunk with the end of the whole text so far. */
function joinChunksByWholeText(contents: string[]): string {
  let text = "";
  for (const content of contents) {
    if (!text) {
      text = content;
      continue;
    }
    let overlap = 0;
    for (let length = Math.min(400, content.length, text.length); length > 0; length--) {
      if (text.endsWith(content.slice(0, length))) {
        overlap = length;
        break;
      }
    }
    text += overlap > 0 ? content.slice(overlap) : `\n${content}`;
  }
  return text;
}

describe("joinChunks", () => {
  it("gives back a text split into chunks that each repeat the end of the one before", () => {
    const text = Array.from({ length: 120 }, (_, n) => `Sentence ${n} of the quarterly letter.`).join(" ");
    const chunks = chunksOf(text, 850);
    expect(chunks.length).toBeGreaterThan(3);
    expect(joinChunks(chunks)).toBe(text);
  });

  it("keeps chunks that do not overlap apart", () => {
    expect(joinChunks(["First part.", "Second part."])).toBe("First part.\nSecond part.");
    expect(joinChunks([])).toBe("");
  });

  it("joins any chunks exactly as comparing with the whole text did", () => {
    const piece = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n"), maxLength: 600 });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (chunks) => {
        expect(joinChunks(chunks)).toBe(joinChunksByWholeText(chunks));
      }),
    );
  });

  it("gives only the start it is asked for, the same text as joining everything", () => {
    const text = Array.from({ length: 400 }, (_, n) => `Line ${n}: the board meets on Tuesday.`).join("\n");
    const whole = joinChunks(chunksOf(text));
    for (const maxChars of [1, 999, 1000, 5000, whole.length, whole.length + 10]) expect(joinChunks(chunksOf(text), maxChars)).toBe(whole.slice(0, maxChars));
  });

  it("joins a 20 MB text in one pass (it took minutes when each chunk was compared with the whole text so far)", () => {
    const lines: string[] = [];
    for (let n = 0, size = 0; size < 20 * 2 ** 20; n++, size += 90) lines.push(`Item ${n}: the quarterly board pack lists its owner and the date it is due.`);
    const text = lines.join("\n");
    // Compared as a boolean: a failure must not print 20 MB.
    expect(joinChunks(chunksOf(text)) === text).toBe(true);
  });
});
