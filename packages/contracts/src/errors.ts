import { z } from "zod";

/**
 * Every non-2xx reply from the API has this shape: `error` is the message to show, `code` a stable name for it.
 * The web search and knowledge-query test routes also carry the message as `message`, which their pages read.
 */
export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.string(),
  message: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * A failure inside a server-sent event stream (its `error` event): the error body, plus the status a JSON reply
 * would have had, since the HTTP status is already 200 once the stream has started.
 */
export const streamErrorSchema = errorResponseSchema.extend({ status: z.number().int(), statusText: z.string() });
export type StreamError = z.infer<typeof streamErrorSchema>;
