import type { ExtractedSection } from "./extracted-document.ts";

export interface Chunk {
  position: number;
  source: string;
  content: string;
}

export interface ChunkOptions {
  /** A chunk is closed once it reaches about this many characters. */
  target?: number;
  /** No chunk is longer than this. */
  max?: number;
  /** Characters of the previous chunk's end repeated at the start of the next (same section only). */
  overlap?: number;
}

const DEFAULTS = { target: 1000, max: 1200, overlap: 150 };

/**
 * Splits sections into retrieval-sized chunks. Chunks never cross a section (page or heading), so each carries
 * an exact source. Inside a section it packs whole paragraphs, then sentences, then words, and repeats a short
 * tail of the previous chunk so a fact split across a boundary is still found whole.
 */
export function chunkSections(sections: ExtractedSection[], options: ChunkOptions = {}): Chunk[] {
  return [...eachChunk(sections, options)];
}

/** The chunks of chunkSections one at a time, so a caller on the server's thread can pause between them. */
export function* eachChunk(sections: Iterable<ExtractedSection>, options: ChunkOptions = {}): Generator<Chunk> {
  const { target, max, overlap } = { ...DEFAULTS, ...options };
  let position = 0;
  for (const section of sections) {
    let current = "";
    let fresh = false;
    const emit = (): Chunk | undefined => {
      const chunk = fresh && current.trim() ? { position: position++, source: section.source, content: current.trim() } : undefined;
      current = overlapTail(current, overlap);
      fresh = false;
      return chunk;
    };
    for (const piece of splitIntoPieces(section.text, max)) {
      const joinerFor = () => (current ? (piece.paragraphStart ? "\n\n" : " ") : "");
      if (fresh && current.length + joinerFor().length + piece.text.length > max) {
        const chunk = emit();
        if (chunk) yield chunk;
      }
      // An overlap tail that leaves no room for the next piece is dropped.
      if (current.length + joinerFor().length + piece.text.length > max) current = "";
      current += joinerFor() + piece.text;
      fresh = true;
      if (current.length >= target) {
        const chunk = emit();
        if (chunk) yield chunk;
      }
    }
    if (fresh) {
      const chunk = emit();
      if (chunk) yield chunk;
    }
  }
}

interface Piece {
  text: string;
  paragraphStart: boolean;
}

/** Paragraphs no longer than `max`; longer ones broken at sentences, then words, then characters. */
function* splitIntoPieces(text: string, max: number): Generator<Piece> {
  for (const paragraph of paragraphs(text)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    if (trimmed.length <= max) {
      yield { text: trimmed, paragraphStart: true };
      continue;
    }
    const units = trimmed.includes("\n") ? trimmed.split("\n") : sentences(trimmed);
    let first = true;
    for (const unit of units.flatMap((candidate) => (candidate.length <= max ? [candidate] : sentences(candidate)))) {
      for (const part of unit.length <= max ? [unit] : hardSplit(unit, max)) {
        if (!part.trim()) continue;
        yield { text: part.trim(), paragraphStart: first };
        first = false;
      }
    }
  }
}

/** `text.split(/\n\s*\n/)`, one paragraph at a time (a 20 MB text is not split in one go). */
function* paragraphs(text: string): Generator<string> {
  const separator = /\n\s*\n/g;
  let start = 0;
  for (let match = separator.exec(text); match; match = separator.exec(text)) {
    yield text.slice(start, match.index);
    start = match.index + match[0].length;
  }
  yield text.slice(start);
}

function sentences(text: string): string[] {
  return (
    text
      .match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n|$)\s*/g)
      ?.map((sentence) => sentence.trim())
      .filter(Boolean) ?? [text]
  );
}

function hardSplit(text: string, max: number): string[] {
  const parts: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/)) {
    if (word.length > max) {
      if (current) parts.push(current);
      for (let index = 0; index < word.length; index += max) parts.push(word.slice(index, index + max));
      current = "";
      continue;
    }
    if (current && current.length + 1 + word.length > max) {
      parts.push(current);
      current = "";
    }
    current += (current ? " " : "") + word;
  }
  if (current) parts.push(current);
  return parts;
}

/** The last `size` characters, starting at a sentence or word boundary. */
function overlapTail(text: string, size: number): string {
  if (size <= 0 || text.length <= size) return "";
  const tail = text.slice(-size);
  const sentenceStart = tail.search(/[.!?]\s+\S/);
  if (sentenceStart >= 0 && sentenceStart < size * 0.6) return tail.slice(sentenceStart + 1).trim();
  const space = tail.indexOf(" ");
  return space >= 0 ? tail.slice(space + 1).trim() : "";
}
