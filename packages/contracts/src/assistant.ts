import { z } from "zod";

/**
 * The assistant's calls besides the turn (chat-turn.ts): web search (POST /api/gemini/web-search, which the web
 * search page and the turn's performWebSearch tool use; its path keeps the first provider's name, as the spec
 * gives it, and it serves every provider), the model settings and the connection test. The spec's stateless chat
 * calls are in gemini-compat.ts.
 */

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
