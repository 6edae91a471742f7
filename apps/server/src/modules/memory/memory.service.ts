import { MEMORY_ERRORS, MEMORY_INSTRUCTION_BUDGET, MEMORY_MAX_COUNT, looksLikeSecret, type Memory } from "@sage/contracts/memories";
import { foldCase } from "@sage/contracts/text";
import type { ContentSource } from "@sage/contracts/provenance";
import { badRequest, conflict, notFound } from "../../http/app-error.ts";
import type { SemanticPort } from "../retrieval/retrieval.module.ts";
import type { MemoryRepo } from "./memory.repo.ts";
import { fitsBudget, memoriesForTurn, type VectorEvidence } from "./rank-memories.ts";

/** A fact's identity: the words without case, accents, repeated spaces or the full stop at the end. */
export const factKey = (content: string) =>
  foldCase(content)
    .replace(/\s+/g, " ")
    .replace(/[\s.!;,]+$/, "")
    .trim();

export function createMemoryService(deps: {
  repo: MemoryRepo;
  semantic?: SemanticPort | null;
  now?: () => Date;
  warn?: (message: string, error: unknown) => void;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  function refuseSecret(content: string) {
    if (looksLikeSecret(content)) throw badRequest(MEMORY_ERRORS.secret, "secret_refused");
  }

  /** The memory already holding this fact, compared without case, accents, spacing or end punctuation. */
  async function sameFact(userId: number, content: string, exceptId?: number): Promise<Memory | undefined> {
    const key = factKey(content);
    return (await repo.list(userId)).find((memory) => memory.id !== exceptId && factKey(memory.content) === key);
  }

  /**
   * How close each memory is to the message, for a list over the budget. Memories are embedded the first time
   * they are needed and kept; a failing embedder leaves the choice to BM25 alone.
   */
  async function vectorEvidence(userId: number, memories: readonly Memory[], message: string): Promise<VectorEvidence | undefined> {
    const { semantic } = deps;
    if (!semantic || !message.trim()) return undefined;
    try {
      const stored = await repo.vectors(userId, semantic.embedderId);
      const missing = memories.filter((memory) => !stored.has(memory.id));
      if (missing.length > 0) {
        const made = await semantic.embedDocuments(missing.map((memory) => memory.content));
        await repo.saveVectors(
          semantic.embedderId,
          missing.map((memory, index) => ({ memoryId: memory.id, content: memory.content, vector: made[index]! })),
        );
        missing.forEach((memory, index) => stored.set(memory.id, Float32Array.from(made[index]!)));
      }
      const ids = [...stored.keys()];
      const closeness = await semantic.closeness(
        message,
        ids.map((id) => stored.get(id)!),
      );
      return { closeness: new Map(ids.map((id, index) => [id, closeness[index]!])), fuse: semantic.fuse };
    } catch (error) {
      deps.warn?.("memory embeddings failed; memories are chosen by their words alone", error);
      return undefined;
    }
  }

  /** A saved or edited memory is embedded straight away, off the turn's path; a failure is caught up when needed. */
  function embedSoon(memory: Memory) {
    const { semantic } = deps;
    if (!semantic) return;
    void semantic
      .embedDocuments([memory.content])
      .then(([vector]) => repo.saveVectors(semantic.embedderId, [{ memoryId: memory.id, content: memory.content, vector: vector! }]))
      .catch((error) => deps.warn?.("a memory could not be embedded yet", error));
  }

  return {
    list: (userId: number) => repo.list(userId),

    /**
     * Content arrives validated (trimmed, 1-500 characters); secrets are refused whoever sends them. The same fact
     * is never saved twice: saving it again answers the memory that holds it, with `created: false`.
     */
    async create(
      userId: number,
      content: string,
      origin: { source: "user" | "assistant"; conversationId?: number; derivedFrom?: ContentSource },
    ): Promise<{ memory: Memory; created: boolean }> {
      refuseSecret(content);
      const existing = await sameFact(userId, content);
      if (existing) return { memory: existing, created: false };
      if ((await repo.count(userId)) >= MEMORY_MAX_COUNT) throw badRequest(MEMORY_ERRORS.tooMany, "too_many_memories");
      const memory = await repo.insert({
        userId,
        content,
        source: origin.source,
        conversationId: origin.conversationId ?? null,
        createdAt: now().toISOString(),
        ...(origin.derivedFrom ? { derivedFrom: JSON.stringify(origin.derivedFrom) } : {}),
      });
      embedSoon(memory);
      return { memory, created: true };
    },

    async update(userId: number, id: number, content: string): Promise<Memory> {
      refuseSecret(content);
      const existing = await sameFact(userId, content, id);
      if (existing) throw conflict(MEMORY_ERRORS.duplicate, "duplicate_memory");
      const updated = await repo.update(userId, id, content, now().toISOString());
      if (!updated) throw notFound(MEMORY_ERRORS.memoryNotFound, "memory_not_found");
      embedSoon(updated);
      return updated;
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.remove(userId, id))) throw notFound(MEMORY_ERRORS.memoryNotFound, "memory_not_found");
    },

    /**
     * Flags (never deletes) stored memories that look like secrets: ones saved before the check grew, or restored
     * from an old backup. Answers how many were newly flagged; the content is never logged.
     */
    async flagStoredSecrets(): Promise<number> {
      let flagged = 0;
      for (let afterId = 0; ;) {
        const page = await repo.scanPage(afterId, 500);
        if (page.length === 0) return flagged;
        const ids = page.filter((row) => !row.flaggedSecret && looksLikeSecret(row.content)).map((row) => row.id);
        await repo.flagSecrets(ids);
        flagged += ids.length;
        afterId = page.at(-1)!.id;
      }
    },

    enabled: (userId: number) => repo.enabled(userId),
    setEnabled: (userId: number, enabled: boolean) => repo.setEnabled(userId, enabled),

    /** What a turn gets: nothing when the user switched memory off; otherwise the memories that fit the budget. */
    async forTurn(userId: number, message: string): Promise<{ enabled: boolean; memories: Memory[] }> {
      if (!(await repo.enabled(userId))) return { enabled: false, memories: [] };
      // A memory flagged as a secret stays the user's to edit or delete, but the model never sees it.
      const memories = (await repo.list(userId)).filter((memory) => !memory.flaggedSecret);
      if (fitsBudget(memories, MEMORY_INSTRUCTION_BUDGET)) return { enabled: true, memories };
      return { enabled: true, memories: memoriesForTurn(memories, message, MEMORY_INSTRUCTION_BUDGET, await vectorEvidence(userId, memories, message)) };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
