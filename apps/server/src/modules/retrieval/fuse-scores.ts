/**
 * Cosine similarity means different things per model: unrelated texts sit near 0 for a bag of words but near
 * 0.5 for Gemini or BGE. Each family gets a floor (similarity that means 'unrelated') and a ceiling ('same
 * meaning'); between them the similarity maps linearly onto 0..1.
 */
export function calibrateSimilarity(embedderId: string, similarity: number): number {
  const [floor, ceiling] = embedderId.startsWith("gemini:") ? [0.55, 0.85] : embedderId.startsWith("fake:") ? [0.05, 0.6] : [0.45, 0.85];
  return Math.min(1, Math.max(0, (similarity - floor) / (ceiling - floor)));
}

/**
 * Fuses a chunk's lexical and vector evidence as independent votes: 1 - (1 - l)(1 - v). Either strong signal
 * alone ranks a chunk high, both together rank it higher, and the result stays in 0..1 with the meaning of its
 * parts, which the recommendation threshold (0.4) relies on. Rank fusion (RRF) would discard that scale.
 */
export function fuseScores(lexical: number, vector: number): number {
  return 1 - (1 - lexical) * (1 - vector);
}

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}
