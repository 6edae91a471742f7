import type { Memory } from "@sage/contracts/memories";

const K1 = 1.2;
const B = 0.75;

const terms = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * BM25 over the user's memories for the message (the lexical half of retrieval's hybrid search; a memory list is
 * small enough to score in memory, without an index). Ties and memories sharing no word with the message keep
 * their newest-first order, so recent facts win when nothing matches.
 */
export function rankMemories(memories: readonly Memory[], query: string): Memory[] {
  const queryTerms = [...new Set(terms(query))];
  const documents = memories.map((memory) => terms(memory.content));
  const averageLength = documents.reduce((sum, doc) => sum + doc.length, 0) / Math.max(documents.length, 1) || 1;
  const documentFrequency = new Map<string, number>();
  for (const doc of documents) for (const term of new Set(doc)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const total = memories.length;
  const scored = memories.map((memory, index) => {
    const doc = documents[index]!;
    let score = 0;
    for (const term of queryTerms) {
      const frequency = doc.filter((word) => word === term).length;
      if (frequency === 0) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      score += (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * doc.length) / averageLength));
    }
    return { memory, score };
  });
  return scored.sort((a, b) => b.score - a.score || b.memory.id - a.memory.id).map(({ memory }) => memory);
}

/**
 * The memories a turn's system instruction carries: all of them when they fit the budget, otherwise the most
 * relevant ones for the message that fit, shown in the order they were saved.
 */
export function memoriesForTurn(memories: readonly Memory[], query: string, budget: number): Memory[] {
  const size = (memory: Memory) => memory.content.length + 3; // "- " and the line break
  if (memories.reduce((sum, memory) => sum + size(memory), 0) <= budget) return [...memories];
  const chosen: Memory[] = [];
  let used = 0;
  for (const memory of rankMemories(memories, query)) {
    if (used + size(memory) > budget) continue;
    chosen.push(memory);
    used += size(memory);
  }
  return chosen.sort((a, b) => a.id - b.id);
}
