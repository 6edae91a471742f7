import { MEMORY_ERRORS, looksLikeSecret, memoryContentRequestSchema } from "@sage/contracts/memories";
import type { MemoryPort } from "../../memory/memory.module.ts";
import type { AssistantTool } from "./assistant-tool.ts";

/** saveMemory: one durable fact about the user, linked to the turn's conversation. Offered only while memory is on. */
export function saveMemoryTool(memory: Pick<MemoryPort, "save">): AssistantTool {
  return {
    name: "saveMemory",
    description:
      "Remember one durable fact the user stated about themselves, their people or their preferences, for later conversations. Never a password, PIN, key or other secret.",
    parameters: {
      type: "object",
      properties: { content: { type: "string", description: "The fact, short and self-contained, e.g. 'Anna Berg is the user's chief of staff'" } },
      required: ["content"],
    },
    readOnly: false,
    feature: "memory",
    argumentRoles: { content: "text" },
    // After untrusted content the turn asks the user to Keep it first; a proposal refused anyway is not put to them.
    proposesMemory: {
      refusal(args) {
        const parsed = memoryContentRequestSchema.safeParse({ content: args.content });
        if (!parsed.success) return parsed.error.issues[0]?.message ?? MEMORY_ERRORS.contentRequired;
        return looksLikeSecret(parsed.data.content) ? MEMORY_ERRORS.secret : null;
      },
    },
    async run(args, context) {
      const parsed = memoryContentRequestSchema.safeParse({ content: args.content });
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? MEMORY_ERRORS.contentRequired);
      // A refused secret or a full list is an AppError whose message the model (and the user's toast) gets.
      // Kept from a red card: the memory says which mail or document its words came from (issue 47).
      const origin = context.provenance?.content;
      const derivedFrom = origin?.from === "content" ? origin.source : undefined;
      const { memory: saved, created } = await memory.save(context.userId, parsed.data.content, context.conversationId, derivedFrom);
      // Already remembered: the model hears so, and the chat shows nothing new (no second "Remembered" line).
      if (!created) return { result: { success: true, alreadyRemembered: true, memory: { id: saved.id, content: saved.content } } };
      return { result: { success: true, memory: { id: saved.id, content: saved.content } }, memory: saved };
    },
  };
}
