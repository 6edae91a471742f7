import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createLanguageModelLlm } from "./language-model-llm.ts";
import type { LlmProvider } from "./llm.ts";

export interface OpenAiCompatibleLlmOptions {
  baseUrl: string;
  apiKey?: string;
  modelId: string;
  allowedModels: readonly string[];
  /** The model takes pictures (a vision model such as llava or gpt-4o). */
  vision?: boolean;
}

/** Any server speaking the OpenAI chat completions API (Ollama, LM Studio, vLLM, llama.cpp ...). */
export function createOpenAiCompatibleLlm(options: OpenAiCompatibleLlmOptions): LlmProvider {
  const provider = createOpenAICompatible({ name: "openai-compatible", baseURL: options.baseUrl, apiKey: options.apiKey });
  return createLanguageModelLlm({
    provider: "openai-compatible",
    modelId: options.modelId,
    allowedModels: options.allowedModels,
    keySet: Boolean(options.apiKey),
    baseUrl: options.baseUrl,
    vision: options.vision ?? false,
    languageModel: (modelId) => provider.chatModel(modelId),
  });
}
