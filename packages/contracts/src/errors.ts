import { z } from "zod";

/** Every non-2xx reply from the API has this shape. */
export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
