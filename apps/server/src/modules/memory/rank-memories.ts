import type { Memory } from "@sage/contracts/memories";

const K1 = 1.2;
const B = 0.75;
/** As search scores chunks: a memory holding every query term once scores about 0.83. */
const COVERAGE_GAIN = 1.2;

const terms = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * BM25 over the user's memories for the message, on search's 0..1 scale: tanh(1.2 x score / the summed idf of the
 * query terms any memory holds). A memory list is small enough to score in memory, without an index.
 */
export function lexicalScores(memories: readonly Memory[], query: string): number[] {
  const queryTerms = [...new Set(terms(query))];
  const documents = memories.map((memory) => terms(memory.content));
  const averageLength = documents.reduce((sum, doc) => sum + doc.length, 0) / Math.max(documents.length, 1) || 1;
  const documentFrequency = new Map<string, number>();
  for (const doc of documents) for (const term of new Set(doc)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (memories.length - df + 0.5) / (df + 0.5));
  };
  const yardstick = queryTerms.filter((term) => documentFrequency.has(term)).reduce((sum, term) => sum + idf(term), 0);
  if (yardstick === 0) return memories.map(() => 0);
  const wanted = new Map(queryTerms.filter((term) => documentFrequency.has(term)).map((term) => [term, idf(term)]));
  return documents.map((doc) => {
    const frequencies = new Map<string, number>();
    for (const word of doc) if (wanted.has(word)) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
    let score = 0;
    for (const [term, frequency] of frequencies) {
      score += (wanted.get(term)! * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * doc.length) / averageLength));
    }
    return Math.tanh((COVERAGE_GAIN * score) / yardstick);
  });
}

/** The vector half: each memory's closeness to the message (0..1), and how search fuses the two. */
export interface VectorEvidence {
  closeness: ReadonlyMap<number, number>;
  fuse(lexical: number, vector: number): number;
}

/**
 * The memories most relevant to the message first: BM25 alone, or fused with vector closeness when there is an
 * embedder (the same hybrid as search). Ties, and memories with no evidence at all, keep newest first, so recent
 * facts win when nothing matches.
 */
export function rankMemories(memories: readonly Memory[], query: string, vectors?: VectorEvidence): Memory[] {
  const lexical = lexicalScores(memories, query);
  const scored = memories.map((memory, index) => {
    const vector = vectors?.closeness.get(memory.id);
    return { memory, score: vectors && vector !== undefined ? vectors.fuse(lexical[index]!, vector) : lexical[index]! };
  });
  return scored.sort((a, b) => b.score - a.score || b.memory.id - a.memory.id).map(({ memory }) => memory);
}

/** Each memory counted as the instruction lists it: "- " and a line break around its words. */
const size = (memory: Memory) => memory.content.length + 3;

export const fitsBudget = (memories: readonly Memory[], budget: number) => memories.reduce((sum, memory) => sum + size(memory), 0) <= budget;

/**
 * The memories a turn's system instruction carries: all of them when they fit the budget, otherwise the most
 * relevant ones for the message that fit, shown in the order they were saved.
 */
export function memoriesForTurn(memories: readonly Memory[], query: string, budget: number, vectors?: VectorEvidence): Memory[] {
  if (fitsBudget(memories, budget)) return [...memories];
  const chosen: Memory[] = [];
  let used = 0;
  for (const memory of rankMemories(memories, query, vectors)) {
    if (used + size(memory) > budget) continue;
    chosen.push(memory);
    used += size(memory);
  }
  return chosen.sort((a, b) => a.id - b.id);
}
