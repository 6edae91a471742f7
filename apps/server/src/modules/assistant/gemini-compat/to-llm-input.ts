import type { ChatHistoryMessage, FunctionParameters, Tools } from "@sage/contracts/gemini-compat";
import type { JsonSchema, LlmMessage, LlmTool } from "../../../providers/llm/llm.ts";

/** Gemini-style parameters (type "OBJECT", "STRING" ...) as standard JSON Schema. */
export function toJsonSchema(parameters: FunctionParameters | undefined): JsonSchema {
  if (!parameters) return { type: "object", properties: {} };
  const schema: JsonSchema = {};
  if (parameters.type) schema.type = parameters.type.toLowerCase();
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

/** The client's function declarations as tools the model may call. */
export function toLlmTools(tools: Tools | undefined): LlmTool[] | undefined {
  const declarations = (tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length === 0) return undefined;
  return declarations.map((declaration) => ({
    name: declaration.name,
    description: declaration.description,
    parameters: toJsonSchema(declaration.parameters ?? { type: "object" }),
  }));
}

/** The client's history ('model' is the assistant's role). */
export function toLlmMessages(history: ChatHistoryMessage[]): LlmMessage[] {
  return history.map((message) => (message.role === "user" ? { role: "user", content: message.content } : { role: "assistant", content: message.content }));
}

/** History plus the model's function call and the client's result of running it. */
export function withFunctionResult(history: ChatHistoryMessage[], call: { name: string; args?: Record<string, unknown>; response: unknown }): LlmMessage[] {
  const id = "call-1";
  return [
    ...toLlmMessages(history),
    { role: "assistant", content: "", toolCalls: [{ id, name: call.name, args: call.args ?? {} }] },
    { role: "tool", results: [{ id, name: call.name, result: call.response ?? null }] },
  ];
}
