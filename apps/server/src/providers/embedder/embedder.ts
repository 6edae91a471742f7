/**
 * Turns texts into vectors. Queries and documents may be embedded differently (instruction prefixes,
 * task types), so callers say which. Adapters: gemini, openai-compatible, local ONNX, and none.
 */
export interface Embedder {
  /** Stable id recorded beside every vector, e.g. "gemini:gemini-embedding-001:768". */
  readonly id: string;
  readonly dimensions: number;
  /** Most texts one embed() call may take; callers batch to this. */
  readonly maxBatch: number;
  embed(texts: string[], options: { kind: "query" | "document" }): Promise<number[][]>;
}
