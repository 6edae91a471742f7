import { z } from "zod";

/**
 * Assistant calls. The /api/gemini/* paths keep the name of the first provider; they serve every provider.
 *
 * Streaming: POST /api/gemini/chat and /api/gemini/function-response answer JSON by default. With
 * `"stream": true` in the body they answer `text/event-stream` instead, with these server-sent events
 * (each `data:` is one JSON object):
 *   event: text-delta  data: { "delta": "next words" }               -- as the model produces them
 *   event: finish      data: the same object the JSON answer would be  -- last event on success
 *   event: error       data: { "error": "...", "code": "model_error", "status": 502, "statusText": "Bad Gateway" }  -- last on failure
 *                    (the usual error body, plus the status a plain JSON reply would have had)
 * Closing the request (the stop button) aborts the model call.
 */

export const chatRoleSchema = z.enum(["user", "model"]);
export const chatHistoryMessageSchema = z.object({
  role: chatRoleSchema,
  content: z.string().max(200_000),
});
export type ChatHistoryMessage = z.infer<typeof chatHistoryMessageSchema>;

/** A JSON-schema-like parameter description; Gemini's upper-case type names (OBJECT, STRING) are accepted. */
export type FunctionParameters = { type?: string; description?: string; properties?: Record<string, FunctionParameters>; required?: string[]; items?: FunctionParameters; enum?: string[]; format?: string };
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

export const webSearchRequestSchema = z.object({ query: z.string().max(2000) });
export const webSourceSchema = z.object({ title: z.string(), url: z.string() });
export type WebSource = z.infer<typeof webSourceSchema>;
/** `groundingData` is the sources as text (title and URL per source); `sources` the same as a list. */
export const webSearchResponseSchema = z.object({
  response: z.string(),
  groundingData: z.string(),
  sources: z.array(webSourceSchema),
  message: z.string().optional(),
});
export type WebSearchResponse = z.infer<typeof webSearchResponseSchema>;

export const streamErrorSchema = z.object({ error: z.string(), code: z.string(), status: z.number(), statusText: z.string() });
export const textDeltaSchema = z.object({ delta: z.string() });

/** GET /api/assistant/settings: what the settings page shows; never the key itself. */
export const assistantSettingsSchema = z.object({
  provider: z.enum(["gemini", "openai-compatible", "none", "fake"]),
  modelId: z.string().nullable(),
  allowedModels: z.array(z.string()),
  keySet: z.boolean(),
  baseUrl: z.string().nullable(),
  webSearch: z.string(),
});
export type AssistantSettings = z.infer<typeof assistantSettingsSchema>;

/** POST /api/assistant/test-connection: one tiny model call. */
export const testConnectionResponseSchema = z.object({ ok: z.boolean(), message: z.string() });
export type TestConnectionResponse = z.infer<typeof testConnectionResponseSchema>;

export const NO_SEARCH_QUERY_MESSAGE = "No search query provided.";
