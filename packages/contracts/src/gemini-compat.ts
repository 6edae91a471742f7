import { z } from "zod";
import { streamErrorSchema } from "./errors.ts";
import type { StreamProtocol } from "./stream-event.ts";

/**
 * The spec's stateless chat calls, kept for other clients (decision 024): POST /api/gemini/chat and
 * /api/gemini/function-response. The client sends the history, system instruction and function declarations, and
 * runs the first function call itself; the model's calls come back, never run. SAGE's own chat uses the turn
 * (chat-turn.ts) instead. The paths keep the first provider's name, as the spec gives them; they serve every
 * provider.
 *
 * Both answer JSON by default; with `"stream": true` in the body they answer `text/event-stream` with
 * `compatStreamEventSchema`'s events (written as `stream-event.ts` says):
 *   text-delta  { delta }              the reply's text as the model produces it
 *   finish      the JSON answer        last event on success
 *   error       the usual error body plus the status a plain JSON reply would have had; last on failure
 * Input and the model are checked before the stream starts. Closing the request (Stop) aborts the model call.
 */

export const chatRoleSchema = z.enum(["user", "model"]);
export const chatHistoryMessageSchema = z.object({
  role: chatRoleSchema,
  content: z.string().max(200_000),
});
export type ChatHistoryMessage = z.infer<typeof chatHistoryMessageSchema>;

/** A JSON-schema-like parameter description; Gemini's upper-case type names (OBJECT, STRING) are accepted. */
export type FunctionParameters = {
  type?: string;
  description?: string;
  properties?: Record<string, FunctionParameters>;
  required?: string[];
  items?: FunctionParameters;
  enum?: string[];
  format?: string;
};
const parametersSchema: z.ZodType<FunctionParameters> = z.lazy(() =>
  z.object({
    type: z.string().max(20).optional(),
    description: z.string().max(2000).optional(),
    properties: z.record(z.string().max(64), parametersSchema).optional(),
    required: z.array(z.string().max(64)).max(50).optional(),
    items: parametersSchema.optional(),
    enum: z.array(z.string().max(200)).max(100).optional(),
    format: z.string().max(50).optional(),
  }),
);

export const functionDeclarationSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "must be a function name"),
  description: z.string().max(4000).optional(),
  parameters: parametersSchema.optional(),
});
export type FunctionDeclaration = z.infer<typeof functionDeclarationSchema>;
export const toolsSchema = z.array(z.object({ functionDeclarations: z.array(functionDeclarationSchema).max(32) })).max(8);
export type Tools = z.infer<typeof toolsSchema>;

const turnFields = {
  messages: z.array(chatHistoryMessageSchema).min(1, "messages must not be empty").max(500),
  /** One of the models the server allows; the server's default chat model when omitted. */
  model: z.string().max(200).optional(),
  systemInstruction: z.string().max(20_000).optional(),
  tools: toolsSchema.optional(),
  /** true: answer with server-sent events (see above). */
  stream: z.boolean().optional(),
};

export const chatRequestSchema = z.object(turnFields);
export type ChatRequest = z.infer<typeof chatRequestSchema>;

export const functionCallSchema = z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) });
export type FunctionCall = z.infer<typeof functionCallSchema>;

export const chatResponseSchema = z.object({ response: z.string(), functionCalls: z.array(functionCallSchema) });
export type ChatResponse = z.infer<typeof chatResponseSchema>;

export const functionResponseRequestSchema = z.object({
  ...turnFields,
  /** The result of the function the model called; `args` are the call's arguments (default {}). */
  functionResponse: z.object({
    name: functionDeclarationSchema.shape.name,
    args: z.record(z.string(), z.unknown()).optional(),
    response: z.unknown(),
  }),
});
export type FunctionResponseRequest = z.infer<typeof functionResponseRequestSchema>;
export const functionResponseResponseSchema = z.object({ response: z.string() });
export type FunctionResponseResponse = z.infer<typeof functionResponseResponseSchema>;

export const compatStreamEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text-delta"), delta: z.string() }),
  z.object({ type: z.literal("finish"), ...chatResponseSchema.shape, functionCalls: chatResponseSchema.shape.functionCalls.optional() }),
  z.object({ type: z.literal("error"), ...streamErrorSchema.shape }),
]);
export type CompatStreamEvent = z.infer<typeof compatStreamEventSchema>;
export type CompatStreamEventOf<T extends CompatStreamEvent["type"]> = Extract<CompatStreamEvent, { type: T }>;
export const compatStreamProtocol: StreamProtocol<CompatStreamEvent> = {
  schema: compatStreamEventSchema,
  names: new Set(compatStreamEventSchema.options.map((option) => option.shape.type.value)),
};
