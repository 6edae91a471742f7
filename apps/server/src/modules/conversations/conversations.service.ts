import type { AppendMessageBody, Conversation, Message } from "@sage/contracts/conversations";
import { notFound } from "../../http/app-error.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { ConversationsRepo } from "./conversations.repo.ts";

const CONVERSATION_NOT_FOUND = "Conversation not found";
// Message lists kept in memory for the conversations used most recently, up to about this many bytes in all.
const MESSAGE_CACHE_BYTES = 16 * 1_048_576;
const sizeOf = (messages: readonly Message[]) => messages.reduce((sum, message) => sum + 2 * message.content.length + 120, 0);

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

  // Recently used conversations' messages (Map order = least recently used first). Only this service writes
  // messages, and the repo's message calls are synchronous, so an entry is always the table's content.
  const messageLists = new Map<number, { messages: readonly Message[]; bytes: number }>();
  let cachedBytes = 0;
  const forgetMessages = (id: number) => {
    cachedBytes -= messageLists.get(id)?.bytes ?? 0;
    messageLists.delete(id);
  };
  const rememberMessages = (id: number, messages: readonly Message[], bytes = sizeOf(messages)) => {
    forgetMessages(id);
    if (bytes > MESSAGE_CACHE_BYTES / 4) return;
    while (cachedBytes + bytes > MESSAGE_CACHE_BYTES) forgetMessages(messageLists.keys().next().value!);
    messageLists.set(id, { messages, bytes });
    cachedBytes += bytes;
  };
  const messagesOf = (id: number): readonly Message[] => {
    const cached = messageLists.get(id);
    if (!cached) {
      const messages = repo.listMessages(id);
      rememberMessages(id, messages);
      return messages;
    }
    rememberMessages(id, cached.messages, cached.bytes);
    return cached.messages;
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
      const storageKeys = await repo.remove(userId, id).finally(() => {
        changed(userId);
        forgetMessages(id);
      });
      if (!storageKeys) throw notFound(CONVERSATION_NOT_FOUND);
      // After commit: a failed file removal leaves an orphan file, never a row pointing at a missing file.
      await deps.blobs.remove(storageKeys).catch((error) => deps.log?.(error));
    },

    async listMessages(userId: number, id: number): Promise<readonly Message[]> {
      await requireOwned(userId, id);
      return messagesOf(id);
    },

    /** Saves the message and answers the conversation's updated message list (spec: POST .../messages). */
    async appendMessage(userId: number, id: number, message: AppendMessageBody): Promise<readonly Message[]> {
      const row = repo.appendMessage(userId, id, message);
      if (!row) throw notFound(CONVERSATION_NOT_FOUND);
      const cached = messageLists.get(id);
      if (!cached) return messagesOf(id);
      const messages = [...cached.messages, row];
      rememberMessages(id, messages, cached.bytes + sizeOf([row]));
      return messages;
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
