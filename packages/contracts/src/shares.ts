import { z } from "zod";

/** A shared link lasts this long unless the user says otherwise (decision 068). */
export const SHARE_DEFAULT_DAYS = 7;
/** The longest a link may last: a link is a standing key to the file, so it always ends. */
export const SHARE_MAX_DAYS = 90;

export const SHARE_TEXTS = {
  expiresInDays: `expiresInDays must be a whole number of days from 1 to ${SHARE_MAX_DAYS}`,
  notShareable: "Only a file or a note can be shared by link",
  shareNotFound: "Shared link not found",
  /** The page an unknown, expired or stopped link shows: the same for all three. */
  linkGone: "This link does not open anything. It may have expired, or its owner stopped sharing it.",
} as const;

/** POST /api/files/{id}/share: how long the link lasts, in days (7 when left out). */
export const createShareRequestSchema = z
  .object({
    expiresInDays: z
      .number({ error: SHARE_TEXTS.expiresInDays })
      .int(SHARE_TEXTS.expiresInDays)
      .min(1, SHARE_TEXTS.expiresInDays)
      .max(SHARE_MAX_DAYS, SHARE_TEXTS.expiresInDays)
      .optional(),
  })
  .describe("How long the link lasts");

/** One live link to one of the user's files; the link itself is shown only when it is made (only its hash is kept). */
export const fileShareSchema = z.object({
  id: z.number().int(),
  fileId: z.number().int(),
  fileName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().describe("When the link stops working (ISO 8601, UTC)"),
});

export const createdShareSchema = fileShareSchema.extend({
  url: z.string().describe("The link: anyone who has it can open the file, without signing in, until it expires"),
});

export const fileShareListSchema = z.array(fileShareSchema);

/** GET /shared/{token}: a token is 32 random bytes in base64url; anything else is the same 404 as an unknown one. */
export const sharedFileParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

export type FileShare = z.infer<typeof fileShareSchema>;
export type CreatedShare = z.infer<typeof createdShareSchema>;
export type CreateShareRequest = z.infer<typeof createShareRequestSchema>;
