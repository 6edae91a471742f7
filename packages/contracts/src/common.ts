import { z } from "zod";

/** A numeric id in a URL path (`/api/x/{id}`), as a positive integer. */
export const idParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** `userId` as the client passes it on knowledge calls; the server checks it matches the session. */
export const userIdField = z.coerce.number().int().positive().optional();

/** A message of a conversation in a URL path (`/api/conversations/{id}/messages/{messageId}/...`). */
export const messageParamsSchema = idParamsSchema.extend({
  messageId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
