import type { ChatRequest, ChatResponse, FunctionResponseRequest, FunctionResponseResponse } from "@sage/contracts/gemini-compat";
import { badRequest } from "../../../http/app-error.ts";
import { LLM_NOT_CONFIGURED_MESSAGE, type LlmProvider, type LlmRequest } from "../../../providers/llm/llm.ts";
import { modelFailure, withModelTimeout } from "../model-call.ts";
import { toLlmMessages, toLlmTools, withFunctionResult } from "./to-llm-input.ts";

export interface CompatCallOptions {
  signal?: AbortSignal;
  /** Called with each piece of reply text as the model produces it. */
  onDelta?: (delta: string) => void;
}

/**
 * The spec's stateless chat calls (decision 024): one model reply over the history the client sends, with the
 * function declarations it sends; function calls come back to the client, never run here.
 */
export function createGeminiCompatService(deps: { llm: LlmProvider | null; resolveModel(requested: string | undefined): string | null }) {
  const { llm } = deps;

  async function reply(request: LlmRequest, options: CompatCallOptions): Promise<ChatResponse> {
    try {
      const answer = await llm!.generate({ ...request, signal: withModelTimeout(options.signal), onText: options.onDelta });
      return { response: answer.text, functionCalls: answer.toolCalls.map((call) => ({ name: call.name, args: call.args })) };
    } catch (error) {
      throw modelFailure(error);
    }
  }

  function notConfiguredReply(options: CompatCallOptions): ChatResponse {
    options.onDelta?.(LLM_NOT_CONFIGURED_MESSAGE);
    return { response: LLM_NOT_CONFIGURED_MESSAGE, functionCalls: [] };
  }

  return {
    /** Checks a call before any streaming starts: an allowed model and something to answer. */
    check(request: { model?: string; messages: ChatRequest["messages"] }) {
      deps.resolveModel(request.model);
      if (!request.messages.some((message) => message.content.trim() !== "")) throw badRequest("Invalid body: messages: every message is empty");
    },

    /** POST /api/gemini/chat: one model reply over the history; function calls are returned, not run. */
    async chat(request: ChatRequest, options: CompatCallOptions = {}): Promise<ChatResponse> {
      const modelId = deps.resolveModel(request.model);
      if (!modelId) return notConfiguredReply(options);
      return reply({ modelId, messages: toLlmMessages(request.messages), system: request.systemInstruction, tools: toLlmTools(request.tools) }, options);
    },

    /** POST /api/gemini/function-response: the follow-up reply once the client ran the function. */
    async functionResponse(request: FunctionResponseRequest, options: CompatCallOptions = {}): Promise<FunctionResponseResponse> {
      const modelId = deps.resolveModel(request.model);
      if (!modelId) return { response: notConfiguredReply(options).response };
      const messages = withFunctionResult(request.messages, request.functionResponse);
      const { response } = await reply({ modelId, messages, system: request.systemInstruction, tools: toLlmTools(request.tools) }, options);
      return { response };
    },
  };
}

export type GeminiCompatService = ReturnType<typeof createGeminiCompatService>;
