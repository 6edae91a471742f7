import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { embedMany } from "ai";
import type { Embedder } from "./embedder.ts";
import { normalize } from "./gemini.ts";

/**
 * Any OpenAI-compatible /embeddings server (Ollama, LM Studio, vLLM...). The model's size is learnt from its
 * first answer, so `dimensions` is 0 until then; the id names the model, and each vector records its size.
 */
export function createOpenAiCompatibleEmbedder(options: { baseUrl: string; apiKey?: string; modelId: string }): Embedder {
  const provider = createOpenAICompatible({ name: "embedder", baseURL: options.baseUrl, apiKey: options.apiKey });
  const model = provider.textEmbeddingModel(options.modelId);
  let dimensions = 0;
  return {
    id: `openai-compatible:${options.modelId}`,
    get dimensions() {
      return dimensions;
    },
    maxBatch: 64,
    async embed(texts) {
      if (texts.length === 0) return [];
      const { embeddings } = await embedMany({ model, values: texts, maxRetries: 2 });
      if (embeddings[0]) dimensions = embeddings[0].length;
      return embeddings.map(normalize);
    },
  };
}
