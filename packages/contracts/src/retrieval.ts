import { z } from "zod";
import { userIdField } from "./common.ts";

/** The answer to a blank document or web search: no results, and no call made. */
export const NO_SEARCH_QUERY_MESSAGE = "No search query provided.";
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 50;

/** A conversation id as the client sends it: 0 (or absent) means the system knowledge base. */
const conversationIdSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * POST /api/search. Without a conversation id the whole of the user's knowledge is searched; with one,
 * that conversation's knowledge plus the system knowledge base; with 0, the system knowledge base only.
 */
export const searchRequestSchema = z.object({
  query: z.string().max(4000).default(""),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
  conversation_id: conversationIdSchema.nullish(),
  conversationId: conversationIdSchema.nullish(),
  userId: userIdField,
});
export type SearchRequest = z.input<typeof searchRequestSchema>;

export const searchResultSchema = z.object({
  content: z.string(),
  /** 0..1, higher is better; shown to 4 decimals. */
  score: z.number().min(0).max(1),
  metadata: z.object({
    filename: z.string(),
    /** Where in the file the chunk came from; its last path segment is shown as the page or section. */
    source: z.string(),
    file_id: z.number().int().optional(),
    chunk_id: z.number().int().optional(),
  }),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
export const searchResponseSchema = z.array(searchResultSchema);

/** POST /api/recommend-files. */
export const RECOMMENDATION_THRESHOLD = 0.4;
export const recommendRequestSchema = z.object({
  conversation_id: conversationIdSchema.nullish(),
  query_text: z.string().max(20_000).default(""),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
  userId: userIdField,
});
export type RecommendRequest = z.input<typeof recommendRequestSchema>;

export const recommendationSchema = z.object({
  file_id: z.number().int(),
  filename: z.string(),
  /** 0..1, calibrated so 0.4 means 'plausibly relevant'. */
  score: z.number().min(0).max(1),
  /** Empty when the file is binary or its text is mostly garbage. */
  content_preview: z.string(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;
export const recommendResponseSchema = z.array(recommendationSchema);

/** POST /api/test/gemini/query. */
export const testQueryRequestSchema = z.object({ query: z.string().max(4000) });
export const testQueryResponseSchema = z.object({
  response: z.string(),
  sources: z.array(z.object({ filename: z.string(), source: z.string(), score: z.number() })).optional(),
  message: z.string().optional(),
});
export type TestQueryResponse = z.infer<typeof testQueryResponseSchema>;
export const TEST_QUERY_FAILED_MESSAGE = "Failed to get response from Gemini";
/** The test page's model failure: the spec's text when the model is Gemini, no vendor's name for another provider. */
export const testQueryFailed = (provider: string) => (provider === "gemini" ? TEST_QUERY_FAILED_MESSAGE : "Failed to get response from the model");

/** Vector database lifecycle. */
export const EXPORT_DEFAULT_FILENAME = "vector_db_backup.zip";
/** The 100 MB import maximum counts a backup's knowledge without its original files; see docs/decisions/013-complete-backups-and-snapshots.md. */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
/** The whole zip, original files included, may be this large. */
export const IMPORT_MAX_ARCHIVE_BYTES = 2 * 1024 * 1024 * 1024;
export const IMPORT_INVALID_FORMAT_TITLE = "Invalid File Format";
export const IMPORT_INVALID_FORMAT_MESSAGE = "Please upload a ZIP file containing a vector database backup.";
export const IMPORT_TOO_LARGE_TITLE = "File Too Large";

export const resetResponseSchema = z.object({ message: z.string(), vectors_removed: z.number().int() });
export const importResponseSchema = z.object({ message: z.string(), files_imported: z.number().int(), snapshot_id: z.number().int().optional() });
export const revectorizeResponseSchema = z.object({
  message: z.string(),
  processed: z.number().int(),
  job_id: z.number().int().optional(),
});
export type RevectorizeResponse = z.infer<typeof revectorizeResponseSchema>;

/** GET /api/vectors/status: which embedder is in use and how much is vectorised. */
export const vectorStatusSchema = z.object({
  embedder: z.object({ id: z.string(), dimensions: z.number().int(), lexicalOnly: z.boolean() }),
  chunks: z.number().int(),
  vectorized: z.number().int(),
  stale: z.number().int(),
  job: z.object({ id: z.number().int(), status: z.string(), processed: z.number().int(), total: z.number().int() }).nullable(),
  /** The background vectorisation of chunks the current embedder has not embedded yet (decision 016). */
  catchUp: z.object({ id: z.number().int(), status: z.string(), processed: z.number().int(), total: z.number().int() }).nullable().optional(),
});
export type VectorStatus = z.infer<typeof vectorStatusSchema>;
