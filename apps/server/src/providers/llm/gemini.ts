import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { Tool } from "ai";
import { toGeminiToolSchema } from "./gemini-tool-schema.ts";
import { createLanguageModelLlm } from "./language-model-llm.ts";
import type { LlmProvider } from "./llm.ts";
import { withToolSchemas } from "./with-tool-schemas.ts";

export interface GeminiLlmOptions {
  apiKey: string;
  baseUrl?: string;
  modelId: string;
  allowedModels: readonly string[];
}

export function createGeminiLlm(options: GeminiLlmOptions): LlmProvider {
  const google = createGoogleGenerativeAI({ apiKey: options.apiKey, baseURL: options.baseUrl });
  const llm = createLanguageModelLlm({
    provider: "gemini",
    modelId: options.modelId,
    allowedModels: options.allowedModels,
    keySet: Boolean(options.apiKey),
    baseUrl: options.baseUrl,
    vision: true,
    languageModel: (modelId) => google(modelId),
    // Cast: @ai-sdk/google and ai may resolve different provider-utils copies; the runtime shape is the same.
    webSearchTool: () => google.tools.googleSearch({}) as unknown as Tool,
  });
  // Gemini takes a subset of JSON Schema and refuses the whole request otherwise (gemini-tool-schema.ts).
  return withToolSchemas(llm, { vendor: "Gemini", convert: toGeminiToolSchema });
}
