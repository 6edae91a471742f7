import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { BlobStore } from "../../store/blob-store.ts";
import { cleanFilename } from "./clean-filename.ts";
import type { FolderPaths } from "./folder-paths.ts";
import { joinPath } from "./knowledge-tree.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";
import { attachmentsFolderName } from "./mail-attachments.ts";

/**
 * What a mail account's sync needs of the knowledge base: a folder of its own, each message as an .eml item read
 * like an upload (in a conversion process, attachments beside it), and removal of what it added.
 */
export interface MailKnowledgePort {
  /** A new top-level folder, named uniquely ("Work mail", then "Work mail (2)"): never one the user already has. */
  createRootFolder(userId: number, name: string): Promise<number>;
  /** The chain of folders below a folder, each made if missing; answers the last one's id. */
  ensureFolders(userId: number, parentId: number, names: string[]): Promise<number>;
  /** Stores the message and queues its reading; answers the item's id. */
  addMail(userId: number, folderId: number, mail: { name: string; bytes: Buffer; description: string }): Promise<number>;
  /** Deletes a message's item and the folder of its attachments. */
  removeMail(userId: number, itemId: number): Promise<void>;
  /** Deletes a folder and everything in it. */
  removeFolder(userId: number, folderId: number): Promise<void>;
  /** Whether the folder still exists (the user may have deleted it). */
  folderExists(userId: number, folderId: number): Promise<boolean>;
}

export function createMailKnowledge(deps: {
  repo: KnowledgeRepo;
  blobs: BlobStore;
  folders: FolderPaths;
  enqueue(item: { id: number; userId: number }): Promise<unknown>;
  sweep(): Promise<void>;
}): MailKnowledgePort {
  const { repo } = deps;
  const folder = async (userId: number, id: number) => {
    const item = await repo.getItem(userId, id);
    return item?.type === "folder" ? item : undefined;
  };
  return {
    async createRootFolder(userId, raw) {
      const base = cleanFilename(raw, "Mail");
      for (let n = 1; ; n++) {
        const name = n === 1 ? base : `${base} (${n})`;
        if (await repo.findFolder({ userId, conversationId: null, parentId: null, name })) continue;
        return repo.insertItem({ userId, conversationId: null, parentId: null, type: "folder", name, path: joinPath(null, name), status: "ready" });
      }
    },

    async ensureFolders(userId, parentId, names) {
      const parent = await folder(userId, parentId);
      if (!parent) throw new Error("the account's folder is gone");
      const where = await deps.folders.ensure(userId, { conversationId: null, parentId, parentPath: parent.path }, names);
      return where.parentId!;
    },

    async addMail(userId, folderId, mail) {
      const parent = await folder(userId, folderId);
      if (!parent) throw new Error("the account's folder is gone");
      const name = cleanFilename(mail.name, "message.eml");
      const { key, size } = await deps.blobs.put(Readable.from([mail.bytes]));
      const id = await repo.insertItem({
        userId,
        conversationId: null,
        parentId: folderId,
        type: "file",
        name,
        path: joinPath(parent.path, name),
        description: mail.description,
        mimeType: "message/rfc822",
        size,
        storageKey: key,
        contentHash: createHash("sha256").update(mail.bytes).digest("hex"),
        status: "queued",
      });
      await deps.enqueue({ id, userId });
      return id;
    },

    async removeMail(userId, itemId) {
      const item = await repo.getItem(userId, itemId);
      if (!item) return;
      const attachments = await repo.findFolder({
        userId,
        conversationId: item.conversationId,
        parentId: item.parentId,
        name: attachmentsFolderName(item.name),
      });
      if (attachments) await repo.deleteItem(userId, attachments.id);
      await repo.deleteItem(userId, itemId);
      await deps.sweep();
    },

    async removeFolder(userId, folderId) {
      if (!(await folder(userId, folderId))) return;
      await repo.deleteItem(userId, folderId);
      await deps.sweep();
    },

    folderExists: async (userId, folderId) => (await folder(userId, folderId)) !== undefined,
  };
}
