import { decodeToolArguments, type ArgumentStep, type GeminiToolSchemaResult } from "./gemini-tool-schema.ts";
import type { JsonSchema, LlmProvider, ToolSchemaProblem } from "./llm.ts";

export interface ToolSchemaConversion {
  /** The vendor's name for the user ("Gemini"). */
  vendor: string;
  convert(parameters: JsonSchema): GeminiToolSchemaResult;
}

/**
 * The provider with each tool's parameters converted to what its vendor takes: a tool that cannot be converted is
 * left out of the request (never failing the turn), and the arguments the model wrote as JSON text are parsed back
 * before the caller sees them. Conversions are kept per schema object: a server's tools keep theirs until it restarts.
 */
export function withToolSchemas(llm: LlmProvider, conversion: ToolSchemaConversion): LlmProvider {
  const converted = new WeakMap<object, GeminiToolSchemaResult>();
  const convert = (parameters: JsonSchema): GeminiToolSchemaResult => {
    const known = converted.get(parameters);
    if (known) return known;
    const result = conversion.convert(parameters);
    if (typeof parameters === "object" && parameters !== null) converted.set(parameters, result);
    return result;
  };

  return {
    ...llm,
    checkToolSchema(parameters): ToolSchemaProblem | undefined {
      const result = convert(parameters);
      return result.ok ? undefined : { message: `${conversion.vendor} cannot use this tool, so chats leave it out: ${result.reason}.`, detail: result.detail };
    },

    async generate(request) {
      if (!request.tools?.length) return llm.generate(request);
      const decoders = new Map<string, ArgumentStep[][]>();
      const tools = request.tools.flatMap((tool) => {
        const result = convert(tool.parameters);
        if (!result.ok) return [];
        if (result.schema.jsonText.length > 0) decoders.set(tool.name, result.schema.jsonText);
        return [{ ...tool, parameters: result.schema.parameters }];
      });
      const reply = await llm.generate({ ...request, tools });
      if (decoders.size === 0) return reply;
      return {
        ...reply,
        toolCalls: reply.toolCalls.map((call) =>
          decoders.has(call.name) ? { ...call, args: decodeToolArguments(call.args, decoders.get(call.name)!) } : call,
        ),
      };
    },
  };
}
