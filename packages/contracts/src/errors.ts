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
