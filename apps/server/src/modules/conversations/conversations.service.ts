import type { AppendMessageBody } from "@sage/contracts/conversations";
import { notFound } from "../../http/app-error.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { ConversationsRepo } from "./conversations.repo.ts";

const CONVERSATION_NOT_FOUND = "Conversation not found";

/** Conversations and messages of one user; another user's conversation is simply not found. */
export function createConversationsService(deps: { repo: ConversationsRepo; blobs: Pick<BlobStore, "remove">; log?: (error: unknown) => void }) {
  const { repo } = deps;

  async function requireOwned(userId: number, id: number) {
    const conversation = await repo.find(userId, id);
    if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
    return conversation;
  }

  return {
    list: (userId: number) => repo.list(userId),
    get: requireOwned,
    create: (userId: number, name: string) => repo.insert(userId, name),

    async rename(userId: number, id: number, name: string) {
      const conversation = await repo.rename(userId, id, name);
      if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
      return conversation;
    },

    async remove(userId: number, id: number) {
      const storageKeys = await repo.remove(userId, id);
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
