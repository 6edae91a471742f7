/**
 * The chat model capability, chosen once from config (registry.ts). Callers speak these small types; the
 * vendor SDKs (the Vercel AI SDK and its providers) are used only inside providers/.
 */

/** A JSON Schema object describing a tool's arguments. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
}

export interface LlmTool {
  name: string;
  description?: string;
  parameters: JsonSchema;
}

/** Why a model cannot be given a tool: a sentence for the user, and the technical detail. */
export interface ToolSchemaProblem {
  message: string;
  detail: string;
}

/** A picture that goes with a user message (an attached image). */
export interface LlmPicture {
  data: Uint8Array;
  mediaType: string;
}

export interface LlmToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export type LlmMessage =
  | { role: "user"; content: string; pictures?: LlmPicture[] }
  | { role: "assistant"; content: string; toolCalls?: LlmToolCall[] }
  | { role: "tool"; results: { id: string; name: string; result: unknown }[] };

export interface LlmRequest {
  /** One of allowedModels; the default chat model when omitted. */
  modelId?: string;
  system?: string;
  messages: LlmMessage[];
  /** Tools the model may call; calls come back in the reply, they are never run here. */
  tools?: LlmTool[];
  signal?: AbortSignal;
  /** Streams the reply: called with each piece of text as the model produces it. */
  onText?: (delta: string) => void;
}

/**
 * Why the model stopped: it was done (`stop`), called a tool (`tool-calls`), reached its output length limit
 * (`length`: the text is cut), was stopped by the vendor's content filter, or for another reason.
 */
export type LlmFinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";

/** Tokens the reply took, as the vendor counted them (undefined when it did not say). */
export interface LlmUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

export interface LlmReply {
  text: string;
  toolCalls: LlmToolCall[];
  finishReason: LlmFinishReason;
  usage: LlmUsage;
}

/** A reply shaped by a JSON Schema (the vendor's structured output: Gemini's responseSchema, OpenAI's json_schema). */
export interface LlmObjectRequest {
  modelId?: string;
  system?: string;
  prompt: string;
  /** The reply's shape; keep to what every vendor takes (no $ref, no string formats but date-time). */
  schema: JsonSchema;
  signal?: AbortSignal;
}

export interface GroundedAnswer {
  text: string;
  sources: { title: string; url: string }[];
}

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
  /** Whether the model sees pictures; without it, an attached picture goes as the text read from it. */
  readonly vision?: boolean;
  /** One model reply. Failures are ProviderError; an abort rejects with the abort's own error. */
  generate(request: LlmRequest): Promise<LlmReply>;
  /** One reply as JSON matching the schema (parsed, not yet validated by the caller). Failures are ProviderError. */
  generateObject(request: LlmObjectRequest): Promise<unknown>;
  /**
   * Why a tool with these parameters cannot be given to this model; undefined when it can. Absent when the vendor
   * takes any JSON Schema (OpenAI-compatible servers). Such a tool is left out of requests, never failing them.
   */
  checkToolSchema?(parameters: JsonSchema): ToolSchemaProblem | undefined;
  /** An answer grounded in the vendor's own web search (Gemini's Google Search), when the vendor has one. */
  searchWeb?(query: string, options?: { signal?: AbortSignal }): Promise<GroundedAnswer>;
}

/** A vendor call that failed; `status` is the HTTP status the vendor answered, when there was one. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number | undefined,
    message: string,
    /** The request never reached the service (refused connection, unknown host, reset): nothing answered. */
    readonly unreachable = false,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** What chat answers when no provider is configured; says how to configure one. */
export const LLM_NOT_CONFIGURED_MESSAGE =
  "No language model is configured. Set GEMINI_API_KEY (optionally GEMINI_BASE_URL) for Gemini, or " +
  "SAGE_LLM_PROVIDER=openai-compatible with SAGE_LLM_BASE_URL (and SAGE_LLM_API_KEY if needed) for an " +
  "OpenAI-compatible server such as Ollama, then restart SAGE.";
