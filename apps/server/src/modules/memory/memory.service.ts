import { MEMORY_ERRORS, MEMORY_INSTRUCTION_BUDGET, MEMORY_MAX_COUNT, looksLikeSecret, type Memory } from "@sage/contracts/memories";
import { badRequest, notFound } from "../../http/app-error.ts";
import type { MemoryRepo } from "./memory.repo.ts";
import { memoriesForTurn } from "./rank-memories.ts";

export function createMemoryService(deps: { repo: MemoryRepo; now?: () => Date }) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  function refuseSecret(content: string) {
    if (looksLikeSecret(content)) throw badRequest(MEMORY_ERRORS.secret, "secret_refused");
  }

  return {
    list: (userId: number) => repo.list(userId),

    /** Content arrives validated (trimmed, 1-500 characters); secrets are refused whoever sends them. */
    async create(userId: number, content: string, origin: { source: "user" | "assistant"; conversationId?: number }): Promise<Memory> {
      refuseSecret(content);
      if ((await repo.count(userId)) >= MEMORY_MAX_COUNT) throw badRequest(MEMORY_ERRORS.tooMany, "too_many_memories");
      return repo.insert({ userId, content, source: origin.source, conversationId: origin.conversationId ?? null, createdAt: now().toISOString() });
    },

    async update(userId: number, id: number, content: string): Promise<Memory> {
      refuseSecret(content);
      const updated = await repo.update(userId, id, content, now().toISOString());
      if (!updated) throw notFound(MEMORY_ERRORS.memoryNotFound, "memory_not_found");
      return updated;
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.remove(userId, id))) throw notFound(MEMORY_ERRORS.memoryNotFound, "memory_not_found");
    },

    enabled: (userId: number) => repo.enabled(userId),
    setEnabled: (userId: number, enabled: boolean) => repo.setEnabled(userId, enabled),

    /** What a turn gets: nothing when the user switched memory off; otherwise the memories that fit the budget. */
    async forTurn(userId: number, message: string): Promise<{ enabled: boolean; memories: Memory[] }> {
      if (!(await repo.enabled(userId))) return { enabled: false, memories: [] };
      return { enabled: true, memories: memoriesForTurn(await repo.list(userId), message, MEMORY_INSTRUCTION_BUDGET) };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
