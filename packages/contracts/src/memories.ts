import { z } from "zod";

/** A memory is one short fact; longer text belongs in the knowledge base. */
export const MEMORY_CONTENT_MAX = 500;
/** Characters of memories a turn's system instruction may carry; past it, the most relevant ones go. */
export const MEMORY_INSTRUCTION_BUDGET = 2000;
/** Memories one user may keep (the list, the injection and the export stay small). */
export const MEMORY_MAX_COUNT = 1000;

export const MEMORY_ERRORS = {
  contentRequired: "Content is required",
  contentTooLong: `A memory must be at most ${MEMORY_CONTENT_MAX} characters`,
  secret: "That looks like a password or secret key; SAGE does not remember secrets",
  tooMany: `You can keep at most ${MEMORY_MAX_COUNT} memories; delete some first`,
  memoryNotFound: "Memory not found",
  enabledInvalid: "enabled must be true or false",
} as const;

export const MEMORY_TEXTS = {
  remembered: (content: string) => `Remembered: ${content}`,
  undo: "Undo",
  switchLabel: "Let SAGE remember",
} as const;

export const memorySchema = z.object({
  id: z.number().int(),
  content: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  source: z.enum(["user", "assistant"]),
  conversationId: z.number().int().optional(),
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

/**
 * Obvious secrets: a line naming a password, PIN or key with a value after it, or a token shaped like an API key.
 * The check is deliberately narrow; the persona is the first guard.
 */
const SECRET_PATTERNS = [
  /\b(password|passwd|passcode|pin|api[ _-]?key|secret|token|private key|access key)\b\s*(is|=|:)\s*\S+/i,
  /\b(sk|pk|rk)[-_][A-Za-z0-9_-]{16,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

export function looksLikeSecret(content: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(content));
}
