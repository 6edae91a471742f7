import { jsonSchema, tool, type JSONSchema7, type ModelMessage, type ToolSet } from "ai";
import type { ChatHistoryMessage, FunctionParameters, Tools } from "@sage/contracts/assistant";

/** Gemini-style parameters (type "OBJECT", "STRING" ...) as standard JSON Schema. */
export function toJsonSchema(parameters: FunctionParameters | undefined): JSONSchema7 {
  if (!parameters) return { type: "object", properties: {} };
  const schema: JSONSchema7 = {};
  if (parameters.type) schema.type = parameters.type.toLowerCase() as JSONSchema7["type"];
  if (parameters.description) schema.description = parameters.description;
  if (parameters.enum) schema.enum = parameters.enum;
  if (parameters.format) schema.format = parameters.format;
  if (parameters.required) schema.required = parameters.required;
  if (parameters.items) schema.items = toJsonSchema(parameters.items);
  if (parameters.properties) {
    schema.properties = Object.fromEntries(Object.entries(parameters.properties).map(([name, value]) => [name, toJsonSchema(value)]));
  }
  if (schema.type === "object" && !schema.properties) schema.properties = {};
  return schema;
}

/** The client's function declarations as AI SDK tools without execute: the model's calls come back to the client. */
export function toToolSet(tools: Tools | undefined): ToolSet | undefined {
  const declarations = (tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length === 0) return undefined;
  return Object.fromEntries(
    declarations.map((declaration) => [
      declaration.name,
      tool({ description: declaration.description, inputSchema: jsonSchema(toJsonSchema(declaration.parameters ?? { type: "object" })) }),
    ]),
  );
}

/** History as model messages; blank entries are dropped (Gemini refuses empty parts). */
export function toModelMessages(history: ChatHistoryMessage[]): ModelMessage[] {
  return history
    .filter((message) => message.content.trim() !== "")
    .map((message) => (message.role === "user" ? { role: "user", content: message.content } : { role: "assistant", content: message.content }));
}

/** History plus the model's function call and the client's result of running it. */
export function withFunctionResult(
  history: ChatHistoryMessage[],
  call: { name: string; args?: Record<string, unknown>; response: unknown },
): ModelMessage[] {
  const toolCallId = "call-1";
  return [
    ...toModelMessages(history),
    { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName: call.name, input: call.args ?? {} }] },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId, toolName: call.name, output: { type: "json", value: (call.response ?? null) as any } }],
    },
  ];
}
