import { z } from "zod";
import { contentSourceSchema } from "./provenance.ts";

/** A memory is one short fact; longer text belongs in the knowledge base. */
export const MEMORY_CONTENT_MAX = 500;
/** Characters of memories a turn's system instruction may carry; past it, the most relevant ones go. */
export const MEMORY_INSTRUCTION_BUDGET = 2000;
/** Memories one user may keep (the list, the injection and the export stay small). */
export const MEMORY_MAX_COUNT = 1000;

export const MEMORY_ERRORS = {
  contentRequired: "Content is required",
  contentTooLong: `A memory must be at most ${MEMORY_CONTENT_MAX} characters`,
  secret: "That looks like a password, code or account number; SAGE does not remember secrets",
  tooMany: `You can keep at most ${MEMORY_MAX_COUNT} memories; delete some first`,
  memoryNotFound: "Memory not found",
  duplicate: "SAGE already remembers that",
  enabledInvalid: "enabled must be true or false",
} as const;

export const MEMORY_TEXTS = {
  remembered: (content: string) => `Remembered: ${content}`,
  undo: "Undo",
  switchLabel: "Let SAGE remember",
  /** Shown on a memory saved before SAGE refused secrets, which now looks like one (it is no longer given to the assistant). */
  flaggedSecret: "This looks like a secret. SAGE no longer uses it; edit it or delete it.",
} as const;

export const memorySchema = z.object({
  id: z.number().int(),
  content: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  source: z.enum(["user", "assistant"]),
  conversationId: z.number().int().optional(),
  /** Set at start-up on a memory that looks like a secret: kept for the user to edit or delete, never given to the model. */
  flaggedSecret: z.literal(true).optional(),
  /** Kept by the user from a card whose words came from a mail or a document (issue 47): shown as "From <title>". */
  derivedFrom: contentSourceSchema.optional(),
});
export type Memory = z.infer<typeof memorySchema>;
export const memoryListSchema = z.array(memorySchema);

const contentSchema = z
  .string({ error: MEMORY_ERRORS.contentRequired })
  .trim()
  .min(1, MEMORY_ERRORS.contentRequired)
  .max(MEMORY_CONTENT_MAX, MEMORY_ERRORS.contentTooLong);

/** POST /api/memories and PATCH /api/memories/{id}. */
export const memoryContentRequestSchema = z.object({ content: contentSchema });
export type MemoryContentRequest = z.infer<typeof memoryContentRequestSchema>;

/** GET/PUT /api/memory-settings: whether SAGE may save memories and is given them. */
export const memorySettingsSchema = z.object({ enabled: z.boolean({ error: MEMORY_ERRORS.enabledInvalid }) });
export type MemorySettings = z.infer<typeof memorySettingsSchema>;

export { looksLikeSecret } from "./looks-like-secret.ts";
