import type { Config } from "../../config.ts";
import { createGeminiLlm } from "./gemini.ts";
import type { LlmProvider } from "./llm.ts";
import { createOpenAiCompatibleLlm } from "./openai-compatible.ts";

/** The LLM chosen by config, or null when none is configured (chat then explains how to configure one). */
export function createLlm(config: Config["llm"]): LlmProvider | null {
  const common = { modelId: config.chatModel, allowedModels: config.allowedModels };
  if (config.provider === "gemini") {
    if (!config.geminiApiKey) return null;
    return createGeminiLlm({ ...common, apiKey: config.geminiApiKey, baseUrl: config.geminiBaseUrl });
  }
  if (config.provider === "openai-compatible") {
    if (!config.baseUrl) return null;
    return createOpenAiCompatibleLlm({ ...common, baseUrl: config.baseUrl, apiKey: config.apiKey, vision: config.vision });
  }
  return null;
}
