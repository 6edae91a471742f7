import type { LanguageModel, Tool } from "ai";

/**
 * The chat model capability, chosen once from config (registry.ts). Callers use the Vercel AI SDK
 * (`generateText` / `streamText` from "ai") with the LanguageModel this returns, e.g.
 *
 *   const llm = providers.llm;                       // null when no provider is configured
 *   if (!llm) throw new AppError(..., LLM_NOT_CONFIGURED_MESSAGE);
 *   const { text } = await generateText({ model: llm.languageModel(), prompt: "..." });
 *
 * Vendor SDKs are imported only in this folder.
 */
export interface LlmProvider {
  readonly provider: "gemini" | "openai-compatible" | "fake";
  /** The default chat model (SAGE_CHAT_MODEL). */
  readonly modelId: string;
  /** Models a client may ask for; always contains modelId. */
  readonly allowedModels: readonly string[];
  /** Whether an API key is configured (the key itself is never exposed). */
  readonly keySet: boolean;
  /** The base URL requests go to, for the settings page; undefined means the vendor default. */
  readonly baseUrl?: string;
  /** A model handle for the AI SDK; defaults to modelId. Callers check allowedModels first. */
  languageModel(modelId?: string): LanguageModel;
  /** Provider-native web search (Gemini's Google Search grounding) as an AI SDK tool, if the vendor has one. */
  nativeWebSearchTool?(): Tool;
}

/** What chat answers when no provider is configured; says how to configure one. */
export const LLM_NOT_CONFIGURED_MESSAGE =
  "No language model is configured. Set GEMINI_API_KEY (optionally GEMINI_BASE_URL) for Gemini, or " +
  "SAGE_LLM_PROVIDER=openai-compatible with SAGE_LLM_BASE_URL (and SAGE_LLM_API_KEY if needed) for an " +
  "OpenAI-compatible server such as Ollama, then restart SAGE.";
