import { createHash } from "node:crypto";
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
  /**
   * Stores a batch of messages and queues their reading, together (decision 049); answers the items' ids in the order
   * given. The files are written together and the items recorded by one statement: per message, the sync paid a
   * dozen waits on a busy server (12-23 ms a message), more than reading it costs.
   */
  addMails(userId: number, folderId: number, mails: Array<{ name: string; bytes: Buffer; description: string }>): Promise<number[]>;
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
  queueNew(userId: number, itemIds: number[]): Promise<unknown>;
  sweep(): Promise<void>;
}): MailKnowledgePort {
  const { repo } = deps;
  const folder = async (userId: number, id: number) => {
    const item = await repo.getItem(userId, id);
    return item?.type === "folder" ? item : undefined;
  };
  /**
   * Names as given, but one a message beside it (or before it in the batch) already has gets " (2)", " (3)"...: its
   * attachments' folder is named after it, so two same-named mails would share one.
   */
  async function uniqueNames(userId: number, folderId: number, wanted: string[]): Promise<string[]> {
    const taken = await repo.takenNames(userId, folderId, [...new Set(wanted)]);
    const isFree = async (name: string) => !taken.has(name) && (await repo.takenNames(userId, folderId, [name])).size === 0;
    const names: string[] = [];
    for (const name of wanted) {
      let unique = name;
      const dot = name.lastIndexOf(".");
      // Rare (same subject, sender and day): one look-up per number tried.
      for (let n = 2; taken.has(unique) || (unique !== name && !(await isFree(unique))); n++) {
        unique = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
      }
      taken.add(unique);
      names.push(unique);
    }
    return names;
  }

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

    async addMails(userId, folderId, mails) {
      if (mails.length === 0) return [];
      const parent = await folder(userId, folderId);
      if (!parent) throw new Error("the account's folder is gone");
      const names = await uniqueNames(
        userId,
        folderId,
        mails.map((mail) => cleanFilename(mail.name, "message.eml")),
      );
      const stored = await deps.blobs.putMany(mails.map((mail) => mail.bytes));
      const items = mails.map((mail, index) => {
        const name = names[index]!;
        return {
          userId,
          conversationId: null,
          parentId: folderId,
          type: "file" as const,
          name,
          path: joinPath(parent.path, name),
          description: mail.description,
          mimeType: "message/rfc822",
          size: stored[index]!.size,
          storageKey: stored[index]!.key,
          contentHash: createHash("sha256").update(mail.bytes).digest("hex"),
          status: "queued" as const,
        };
      });
      let ids: number[];
      try {
        ids = await repo.insertItems(items);
      } catch (error) {
        // One statement: no item was recorded, so no file is kept.
        await deps.blobs.remove(stored.map((blob) => blob.key));
        throw error;
      }
      await deps.queueNew(userId, ids);
      return ids;
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
