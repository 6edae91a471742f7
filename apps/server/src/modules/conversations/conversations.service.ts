import type { AppendMessageBody, Conversation } from "@sage/contracts/conversations";
import { notFound } from "../../http/app-error.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { ConversationsRepo } from "./conversations.repo.ts";

const CONVERSATION_NOT_FOUND = "Conversation not found";

/** Conversations and messages of one user; another user's conversation is simply not found. */
export function createConversationsService(deps: { repo: ConversationsRepo; blobs: Pick<BlobStore, "remove">; log?: (error: unknown) => void }) {
  const { repo } = deps;
  // Each user's list, kept in memory between changes: it is read on every page open and by every
  // ownership check, and changes only through this service (one process owns the store).
  const lists = new Map<number, Conversation[]>();
  // Bumped by every change, so a list read that overlapped a change is never kept.
  const versions = new Map<number, number>();
  const changed = (userId: number) => {
    lists.delete(userId);
    versions.set(userId, (versions.get(userId) ?? 0) + 1);
  };

  async function list(userId: number): Promise<Conversation[]> {
    const cached = lists.get(userId);
    if (cached) return cached;
    const version = versions.get(userId) ?? 0;
    const fresh = await repo.list(userId);
    if ((versions.get(userId) ?? 0) === version) lists.set(userId, fresh);
    return fresh;
  }

  async function requireOwned(userId: number, id: number) {
    const conversation = (await list(userId)).find((item) => item.id === id);
    if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
    return conversation;
  }

  return {
    list,
    get: requireOwned,

    async create(userId: number, name: string) {
      try {
        return await repo.insert(userId, name);
      } finally {
        changed(userId);
      }
    },

    async rename(userId: number, id: number, name: string) {
      const conversation = await repo.rename(userId, id, name).finally(() => changed(userId));
      if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
      return conversation;
    },

    async remove(userId: number, id: number) {
      const storageKeys = await repo.remove(userId, id).finally(() => changed(userId));
      if (!storageKeys) throw notFound(CONVERSATION_NOT_FOUND);
      // After commit: a failed file removal leaves an orphan file, never a row pointing at a missing file.
      await deps.blobs.remove(storageKeys).catch((error) => deps.log?.(error));
    },

    async listMessages(userId: number, id: number) {
      await requireOwned(userId, id);
      return repo.listMessages(id);
    },

    async appendMessage(userId: number, id: number, message: AppendMessageBody) {
      await requireOwned(userId, id);
      await repo.insertMessage(id, message);
      return repo.listMessages(id);
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
