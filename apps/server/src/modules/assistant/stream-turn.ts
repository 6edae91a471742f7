import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { LanguageModel, ModelMessage } from "ai";
import type { ChatResponse, Tools } from "@sage/contracts/assistant";
import { toJsonSchema } from "./to-model-input.ts";

/** The model as the provider spec's LanguageModelV3, when it is one (every adapter SAGE ships is). */
export function asV3Model(model: LanguageModel): LanguageModelV3 | null {
  return typeof model === "object" && model.specificationVersion === "v3" ? (model as LanguageModelV3) : null;
}

/** The client's function declarations as the provider's function tools. */
export function toFunctionTools(tools: Tools | undefined): LanguageModelV3FunctionTool[] | undefined {
  const declarations = (tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length === 0) return undefined;
  return declarations.map((declaration) => ({
    type: "function",
    name: declaration.name,
    description: declaration.description,
    inputSchema: toJsonSchema(declaration.parameters ?? { type: "object" }),
  }));
}

/** Our model messages (text, and the one function call and result) in the provider's prompt form. */
function toPrompt(messages: ModelMessage[], system: string | undefined): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    if (message.role === "system") prompt.push({ role: "system", content: message.content });
    else if (typeof message.content === "string") prompt.push({ role: message.role, content: [{ type: "text", text: message.content }] } as LanguageModelV3Prompt[number]);
    else prompt.push({ role: message.role, content: message.content } as LanguageModelV3Prompt[number]);
  }
  return prompt;
}

function parseArgs(input: string): Record<string, unknown> {
  try {
    const value = JSON.parse(input || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * One streamed turn straight from the model's doStream. streamText's pipeline (a dozen web streams per turn,
 * prompt re-validation) doubled the server's time to first token; a turn here needs none of it: no tools run
 * on the server, no retries, no steps.
 */
export async function streamTurn(
  model: LanguageModelV3,
  input: { messages: ModelMessage[]; system?: string; tools?: LanguageModelV3FunctionTool[] },
  options: { abortSignal: AbortSignal; onDelta: (delta: string) => void },
): Promise<ChatResponse> {
  const { stream } = await model.doStream({
    prompt: toPrompt(input.messages, input.system),
    tools: input.tools,
    toolChoice: input.tools ? { type: "auto" } : undefined, // as streamText sends it
    abortSignal: options.abortSignal,
  });
  let text = "";
  const functionCalls: ChatResponse["functionCalls"] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done) break;
      if (part.type === "text-delta") {
        if (!part.delta) continue;
        text += part.delta;
        options.onDelta(part.delta);
      } else if (part.type === "tool-call") functionCalls.push({ name: part.toolName, args: parseArgs(part.input) });
      else if (part.type === "error") throw part.error;
    }
  } finally {
    reader.releaseLock();
  }
  return { response: text, functionCalls };
}
