import type { LanguageModelV3Content, LanguageModelV3FinishReason, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { createLanguageModelLlm } from "./language-model-llm.ts";
import type { LlmFinishReason, LlmProvider } from "./llm.ts";

/** One scripted model turn for the fake; with nothing scripted it echoes the last user text. */
export interface FakeLlmReply {
  text?: string;
  functionCalls?: { name: string; args: Record<string, unknown> }[];
  /** Throw this instead of answering. */
  error?: Error;
  /** Why the reply ended; by default "tool-calls" with calls, else "stop". */
  finishReason?: LlmFinishReason;
}

export interface FakeLlm extends LlmProvider {
  script(...replies: FakeLlmReply[]): void;
  /** The prompts the model received, in order (AI SDK's standardized prompt). */
  readonly prompts: unknown[];
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function lastUserText(prompt: LanguageModelV3Prompt): string {
  const last = [...prompt].reverse().find((message) => message.role === "user");
  return (last?.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** An in-memory LlmProvider for unit tests (no HTTP): a scripted AI SDK mock model behind the real adapter. */
export function createFakeLlm(options: { modelId?: string; allowedModels?: string[]; vision?: boolean } = {}): FakeLlm {
  const modelId = options.modelId ?? "fake-model";
  const queue: FakeLlmReply[] = [];
  const prompts: unknown[] = [];

  function next(prompt: LanguageModelV3Prompt): { content: LanguageModelV3Content[]; finishReason: LanguageModelV3FinishReason } {
    prompts.push(prompt);
    const reply = queue.shift() ?? { text: `Fake reply to: ${lastUserText(prompt)}` };
    if (reply.error) throw reply.error;
    const calls = (reply.functionCalls ?? []).map((call, index) => ({
      type: "tool-call" as const,
      toolCallId: `call-${prompts.length}-${index}`,
      toolName: call.name,
      input: JSON.stringify(call.args),
    }));
    const finishReason = { unified: reply.finishReason ?? (calls.length > 0 ? "tool-calls" : "stop"), raw: undefined };
    return { content: [...(reply.text ? [{ type: "text" as const, text: reply.text }] : []), ...calls], finishReason };
  }

  const model = new MockLanguageModelV3({
    provider: "fake",
    modelId,
    doGenerate: async ({ prompt }) => {
      const { content, finishReason } = next(prompt);
      return { content, finishReason, usage, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      const { content, finishReason } = next(prompt);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const item of content) {
        if (item.type === "text") {
          parts.push({ type: "text-start", id: "t" });
          for (const word of item.text.match(/\S+\s*/g) ?? []) parts.push({ type: "text-delta", id: "t", delta: word });
          parts.push({ type: "text-end", id: "t" });
        } else parts.push(item as LanguageModelV3StreamPart);
      }
      parts.push({ type: "finish", finishReason, usage });
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  });

  return {
    ...createLanguageModelLlm({
      provider: "fake",
      modelId,
      allowedModels: options.allowedModels ?? [modelId],
      keySet: false,
      vision: options.vision ?? false,
      languageModel: () => model,
    }),
    script: (...replies) => void queue.push(...replies),
    prompts,
  };
}
