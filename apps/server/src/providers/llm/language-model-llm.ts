import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { APICallError, generateText, jsonSchema, tool, type JSONSchema7, type ModelMessage, type Tool, type ToolSet } from "ai";
import {
  ProviderError,
  type LlmFinishReason,
  type LlmMessage,
  type LlmObjectRequest,
  type LlmProvider,
  type LlmReply,
  type LlmRequest,
  type LlmTool,
  type LlmToolCall,
  type LlmUsage,
} from "./llm.ts";

export interface LanguageModelLlmOptions {
  provider: LlmProvider["provider"];
  modelId: string;
  allowedModels: readonly string[];
  keySet: boolean;
  baseUrl?: string;
  vision?: boolean;
  /** The AI SDK model for a model id (every provider SAGE ships gives the v3 specification's models). */
  languageModel(modelId: string): LanguageModelV3;
  /** The vendor's web search as a provider tool (Gemini's Google Search grounding). */
  webSearchTool?(): Tool;
}

/** An LlmProvider over an AI SDK language model: the one place SAGE's model types meet the SDK's. */
export function createLanguageModelLlm(options: LanguageModelLlmOptions): LlmProvider {
  const failure = (error: unknown) => toProviderError(options.provider, error);
  return {
    provider: options.provider,
    modelId: options.modelId,
    allowedModels: options.allowedModels,
    keySet: options.keySet,
    baseUrl: options.baseUrl,
    vision: options.vision ?? false,

    async generate(request) {
      const model = options.languageModel(request.modelId ?? options.modelId);
      try {
        if (request.onText) return await streamReply(model, request, request.onText);
        const result = await generateText({
          model,
          system: request.system || undefined,
          messages: toModelMessages(request.messages),
          tools: toToolSet(request.tools),
          maxRetries: 0,
          abortSignal: request.signal,
        });
        return {
          text: result.text,
          toolCalls: result.toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, args: asArgs(call.input) })),
          finishReason: result.finishReason,
          usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
        };
      } catch (error) {
        throw failure(error);
      }
    },

    async generateObject(request) {
      try {
        return await objectReply(options.languageModel(request.modelId ?? options.modelId), request);
      } catch (error) {
        throw failure(error);
      }
    },

    searchWeb: options.webSearchTool
      ? async (query, searchOptions = {}) => {
          try {
            const result = await generateText({
              model: options.languageModel(options.modelId),
              tools: { google_search: options.webSearchTool!() },
              prompt: query,
              maxRetries: 0,
              abortSignal: searchOptions.signal,
            });
            const sources: { title: string; url: string }[] = [];
            for (const source of result.sources) {
              if (source.sourceType === "url" && !sources.some((known) => known.url === source.url))
                sources.push({ title: source.title || source.url, url: source.url });
            }
            return { text: result.text, sources };
          } catch (error) {
            throw failure(error);
          }
        }
      : undefined,
  };
}

/** Vendor failures become ProviderError with the vendor's status; aborts and the time limit pass through untouched. */
function toProviderError(provider: string, error: unknown): unknown {
  const name = (error as Error)?.name;
  if (name === "AbortError" || name === "TimeoutError" || error instanceof ProviderError) return error;
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  // The SDK's call error without a status: the request failed before any answer (fetch failed).
  const unreachable = APICallError.isInstance(error) && status === undefined;
  return new ProviderError(provider, status, (error as Error)?.message ?? String(error), unreachable);
}

const asArgs = (input: unknown): Record<string, unknown> =>
  input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};

function parseArgs(input: string): Record<string, unknown> {
  try {
    return asArgs(JSON.parse(input || "{}"));
  } catch {
    return {};
  }
}

/** Blank text is dropped (Gemini refuses empty parts). */
function toModelMessages(messages: LlmMessage[]): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      if (message.pictures?.length) {
        result.push({
          role: "user",
          content: [
            ...(message.content.trim() ? [{ type: "text" as const, text: message.content }] : []),
            // A file part: the provider prompt (which streamReply builds directly) knows pictures only as files.
            ...message.pictures.map((picture) => ({ type: "file" as const, data: picture.data, mediaType: picture.mediaType })),
          ],
        });
      } else if (message.content.trim()) result.push({ role: "user", content: message.content });
    } else if (message.role === "assistant") {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) {
        if (message.content.trim()) result.push({ role: "assistant", content: message.content });
        continue;
      }
      result.push({
        role: "assistant",
        content: [
          ...(message.content.trim() ? [{ type: "text" as const, text: message.content }] : []),
          ...calls.map((call) => ({ type: "tool-call" as const, toolCallId: call.id, toolName: call.name, input: call.args })),
        ],
      });
    } else {
      result.push({
        role: "tool",
        content: message.results.map((entry) => ({
          type: "tool-result" as const,
          toolCallId: entry.id,
          toolName: entry.name,
          output: { type: "json" as const, value: (entry.result ?? null) as never },
        })),
      });
    }
  }
  return result;
}

/** Tools without execute: the model's calls come back to the caller. */
function toToolSet(tools: LlmTool[] | undefined): ToolSet | undefined {
  if (!tools?.length) return undefined;
  return Object.fromEntries(
    tools.map((entry) => [entry.name, tool({ description: entry.description, inputSchema: jsonSchema(entry.parameters as JSONSchema7) })]),
  );
}

function toFunctionTools(tools: LlmTool[] | undefined): LanguageModelV3FunctionTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((entry) => ({ type: "function", name: entry.name, description: entry.description, inputSchema: entry.parameters as JSONSchema7 }));
}

/** The messages in the provider's prompt form, as generateText would send them. */
function toPrompt(messages: LlmMessage[], system: string | undefined): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = system ? [{ role: "system", content: system }] : [];
  for (const message of toModelMessages(messages)) {
    if (message.role === "system") prompt.push({ role: "system", content: message.content });
    else if (typeof message.content === "string")
      prompt.push({ role: message.role, content: [{ type: "text", text: message.content }] } as LanguageModelV3Prompt[number]);
    else prompt.push({ role: message.role, content: message.content } as LanguageModelV3Prompt[number]);
  }
  return prompt;
}

/**
 * One streamed reply straight from the model's doStream. streamText's pipeline (a dozen web streams per reply,
 * prompt re-validation) doubled the server's time to first token; a reply here needs none of it: tools run
 * elsewhere, and there are no retries or steps.
 */
async function streamReply(model: LanguageModelV3, request: LlmRequest, onText: (delta: string) => void): Promise<LlmReply> {
  const tools = toFunctionTools(request.tools);
  const { stream } = await model.doStream({
    prompt: toPrompt(request.messages, request.system || undefined),
    tools,
    toolChoice: tools ? { type: "auto" } : undefined, // as streamText sends it
    abortSignal: request.signal,
  });
  let text = "";
  const toolCalls: LlmToolCall[] = [];
  // A stream that ends without a finish part was cut short by the vendor.
  let finishReason: LlmFinishReason = "other";
  let usage: LlmUsage = { inputTokens: undefined, outputTokens: undefined };
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done) break;
      if (part.type === "text-delta") {
        if (!part.delta) continue;
        text += part.delta;
        onText(part.delta);
      } else if (part.type === "tool-call") toolCalls.push({ id: part.toolCallId, name: part.toolName, args: parseArgs(part.input) });
      else if (part.type === "finish") {
        finishReason = part.finishReason.unified;
        usage = { inputTokens: part.usage.inputTokens.total, outputTokens: part.usage.outputTokens.total };
      } else if (part.type === "error") throw part.error;
    }
  } finally {
    reader.releaseLock();
  }
  return { text, toolCalls, finishReason, usage };
}

/**
 * One structured reply straight from the model's doGenerate, as generateText with Output.object sends it (the
 * schema as the response format, no retries): its prompt re-validation and output pipeline cost more than the
 * request itself when a job asks once per mail (decision 107). The text is parsed here; the caller checks it.
 */
async function objectReply(model: LanguageModelV3, request: LlmObjectRequest): Promise<unknown> {
  const result = await model.doGenerate({
    prompt: [
      ...(request.system ? [{ role: "system" as const, content: request.system }] : []),
      { role: "user", content: [{ type: "text", text: request.prompt }] },
    ],
    responseFormat: { type: "json", schema: request.schema as JSONSchema7 },
    abortSignal: request.signal,
  });
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  // As generateText: no text and no normal stop is no output; text that is not JSON is no object (ProviderErrors).
  if (!text && result.finishReason.unified !== "stop") throw new Error("No output generated.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error("No object generated: could not parse the response.");
  }
}
