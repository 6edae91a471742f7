import { createHash } from "node:crypto";
import type { Embedder } from "./embedder.ts";

/**
 * Deterministic test embedder: a hashed bag of lower-cased words, L2-normalised, so texts sharing words are
 * similar. Synonyms listed in `related` share a slot, which lets tests show what vectors add over BM25.
 */
export function createFakeEmbedder(options: { id?: string; dimensions?: number; related?: string[][] } = {}): Embedder & {
  calls: { texts: string[]; kind: "query" | "document" }[];
} {
  const dimensions = options.dimensions ?? 256;
  const canonical = new Map<string, string>();
  for (const group of options.related ?? []) for (const word of group) canonical.set(word, group[0]!);
  const calls: { texts: string[]; kind: "query" | "document" }[] = [];
  return {
    id: options.id ?? `fake:bag-of-words:${dimensions}`,
    dimensions,
    maxBatch: 16,
    calls,
    async embed(texts, { kind }) {
      calls.push({ texts, kind });
      return texts.map((text) => {
        const vector = new Array<number>(dimensions).fill(0);
        for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
          const word = canonical.get(raw) ?? raw;
          const digest = createHash("sha1").update(word).digest();
          vector[digest.readUInt32BE(0) % dimensions]! += digest[4]! & 1 ? 1 : -1;
        }
        const norm = Math.hypot(...vector) || 1;
        return vector.map((value) => value / norm);
      });
    },
  };
}
