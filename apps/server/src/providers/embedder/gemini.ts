import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { embedMany } from "ai";
import type { Embedder } from "./embedder.ts";

export const GEMINI_EMBEDDING_MODEL = "gemini-embedding-001";
export const GEMINI_EMBEDDING_DIMENSIONS = 768;

/** Gemini embeddings through the AI SDK, truncated to 768 dimensions (Matryoshka) and re-normalised. */
export function createGeminiEmbedder(options: { apiKey: string; baseUrl?: string; modelId?: string }): Embedder {
  const modelId = options.modelId ?? GEMINI_EMBEDDING_MODEL;
  const google = createGoogleGenerativeAI({ apiKey: options.apiKey, baseURL: options.baseUrl });
  const model = google.textEmbeddingModel(modelId);
  return {
    id: `gemini:${modelId}:${GEMINI_EMBEDDING_DIMENSIONS}`,
    dimensions: GEMINI_EMBEDDING_DIMENSIONS,
    maxBatch: 100,
    async embed(texts, { kind }) {
      if (texts.length === 0) return [];
      const { embeddings } = await embedMany({
        model,
        values: texts,
        maxRetries: 2,
        providerOptions: {
          google: {
            outputDimensionality: GEMINI_EMBEDDING_DIMENSIONS,
            taskType: kind === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT",
          },
        },
      });
      return embeddings.map(normalize);
    },
  };
}

/** Unit length, so inner product is cosine similarity (truncated Gemini vectors are not unit length). */
export function normalize(vector: number[]): number[] {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return vector.map((value) => value / norm);
}
