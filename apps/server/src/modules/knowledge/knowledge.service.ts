import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import {
  MOVE_INTO_ITSELF_MESSAGE,
  nameFromNote,
  type CreateFileRequest,
  type CreateFolderRequest,
  type ItemTextResponse,
  type KnowledgeItem,
  type UpdateFileRequest,
} from "@sage/contracts/knowledge";
import { AppError, badRequest, notFound } from "../../http/app-error.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { KnowledgeItemWithText } from "../../store/schema.ts";
import type { Ingestion, KnowledgeIndex } from "./ingestion.ts";
import { downloadContentType } from "../../documents/documents.ts";
import { isWebUrl, type ItemPlacement } from "./item-placement.ts";
import { isSelfOrDescendant, nestItems, repath } from "./knowledge-tree.ts";
import { pageList } from "./knowledge-backup-rows.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";

export const REFERENCE_ONLY_REASON = "Added as a reference without content processing";
export const STORED_FILE_MISSING = "The stored file is missing";

export function toApiItem(row: KnowledgeItemWithText): KnowledgeItem {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    path: row.path,
    description: row.description,
    content: row.content,
    url: row.url,
    parentId: row.parentId ?? 0,
    userId: row.userId,
    conversationId: row.conversationId ?? 0,
    size: row.size,
    status: row.status,
    statusReason: row.statusReason,
    chunkCount: row.chunkCount,
    ocrPages: pageList(row.ocrPages),
    ocrFailedPages: pageList(row.ocrFailedPages),
    createdAt: row.createdAt,
  };
}

/** The knowledge base tree: folders, files, links and notes of one user, and their stored bytes. */
export function createKnowledgeService(deps: {
  repo: KnowledgeRepo;
  blobs: BlobStore;
  placement: ItemPlacement;
  ingestion: Ingestion;
  index: Pick<KnowledgeIndex, "itemSections" | "itemRenamed">;
  warn(message: string, error?: unknown): void;
}) {
  const { repo, blobs, placement, ingestion } = deps;

  async function requireItem(userId: number, id: number) {
    const item = await repo.getItem(userId, id);
    if (!item) throw notFound("Item not found");
    return item;
  }

  const apiItem = async (userId: number, id: number) => toApiItem((await repo.getItem(userId, id))!);

  /** While an export reads stored files, deleted items' files stay on disk (their rows wait in blob_deletions). */
  let filesHeld = 0;

  /** Removes the stored files of deleted items (a trigger records them, however the item went). */
  async function sweepDeletedBlobs(): Promise<void> {
    for (;;) {
      if (filesHeld > 0) return;
      const keys = await repo.pendingBlobDeletions();
      if (keys.length === 0) return;
      await blobs.remove(keys);
      await repo.clearBlobDeletions(keys);
    }
  }

  return {
    apiItem,
    requireItem,
    sweepDeletedBlobs,

    /** One of the user's items; another user's is not found. */
    async get(userId: number, id: number) {
      return toApiItem(await requireItem(userId, id));
    },

    /** GET /api/files/{id}/text: the item's text as it was read, by page, slide, sheet or heading (its preview). */
    async text(userId: number, id: number): Promise<ItemTextResponse> {
      const item = await requireItem(userId, id);
      if (item.type === "folder") return { sections: [] };
      return { sections: await deps.index.itemSections(userId, item.id) };
    },

    /** Keeps stored files on disk until the answer is called (an export is reading them); then sweeps. */
    holdFiles(): () => Promise<void> {
      filesHeld += 1;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        filesHeld -= 1;
        await sweepDeletedBlobs();
      };
    },

    /** The items as the API's JSON array, streamed a page at a time (a knowledge base may hold 300,000 items). */
    list(userId: number, filter: { conversationId?: number; parentId?: number }): Readable {
      // One page read ahead at most: the default (16 objects) let up to 16 pages of ~0.8 MB wait for a slow client.
      return Readable.from(
        repo.listJson(userId, {
          conversationId: filter.conversationId === undefined ? undefined : filter.conversationId || null,
          parentId: filter.parentId === undefined ? undefined : filter.parentId || null,
        }),
        { highWaterMark: 1 },
      );
    },

    async folderTree(userId: number) {
      return nestItems((await repo.listItems(userId, { type: "folder" })).map(toApiItem));
    },

    async conversationFiles(userId: number, conversationId: number) {
      await placement.placement(userId, { conversationId });
      return (await repo.listItems(userId, { conversationId })).map(toApiItem);
    },

    async createFolder(userId: number, input: CreateFolderRequest) {
      const where = await placement.placement(userId, input);
      const id = await placement.insertPlaced(userId, where, { type: "folder", name: input.name, status: "ready" });
      return apiItem(userId, id);
    },

    /** A note (queued for ingestion), or a URL kept as a plain reference (the web app's fallback for links). */
    async createEntry(userId: number, input: CreateFileRequest) {
      const where = await placement.placement(userId, input);
      const content = input.content ?? "";
      if (input.type === "note") {
        if (!content.trim()) throw badRequest("Note content is required");
        const name = input.name?.trim() || nameFromNote(content);
        const id = await placement.insertPlaced(userId, where, {
          type: "note",
          name,
          description: input.description ?? "",
          content,
          size: Buffer.byteLength(content),
          status: "queued",
        });
        await ingestion.ingestNote({ id, userId });
        return apiItem(userId, id);
      }
      const url = (input.url ?? content).trim();
      if (!isWebUrl(url)) throw badRequest("Please enter a valid http or https URL");
      const { id } = await placement.insertUrlItem(userId, where, input, url, { status: "stored", statusReason: REFERENCE_ONLY_REASON });
      return apiItem(userId, id);
    },

    async update(userId: number, id: number, input: UpdateFileRequest) {
      const item = await requireItem(userId, id);
      const changes: Parameters<KnowledgeRepo["updateItem"]>[1] = {};
      if (input.description !== undefined) changes.description = input.description;
      let reingest = false;
      if (input.content !== undefined) {
        if (item.type !== "note") throw badRequest("Only a note's content can be edited");
        if (!input.content.trim()) throw badRequest("Note content is required");
        changes.content = input.content;
        changes.size = Buffer.byteLength(input.content);
        reingest = input.content !== item.content;
      }
      let name = item.name;
      if (input.name !== undefined) {
        name = input.name.trim();
        if (!name) throw badRequest("Name is required");
        changes.name = name;
      }
      let parentPath: string | null = item.path.includes("/") ? item.path.slice(0, item.path.lastIndexOf("/")) : null;
      if (input.parentId !== undefined) {
        const subtree = await repo.subtree(userId, id);
        const target = input.parentId || null;
        if (target !== null) {
          if (isSelfOrDescendant(subtree, target)) throw badRequest(MOVE_INTO_ITSELF_MESSAGE);
          const parent = await repo.getItem(userId, target);
          if (!parent) throw notFound("Destination folder not found");
          if (parent.type !== "folder") throw badRequest("Items can only be moved into a folder");
          parentPath = parent.path;
        } else {
          parentPath = null;
        }
        changes.parentId = target;
      }
      await repo.updateItem(id, changes);
      if (changes.name !== undefined && changes.name !== item.name) await deps.index.itemRenamed(id);
      if (input.name !== undefined || input.parentId !== undefined) {
        const subtree = await repo.subtree(userId, id);
        await repo.setPaths(repath(subtree, { name, parentPath }));
      }
      if (reingest) await ingestion.ingestNote({ id, userId });
      return apiItem(userId, id);
    },

    /** Deletes the item and, for a folder, everything inside; chunks and jobs go by cascade, files here. */
    async remove(userId: number, id: number) {
      await requireItem(userId, id);
      const subtree = await repo.subtree(userId, id);
      await repo.deleteItem(userId, id);
      // A document still being read would otherwise keep its reader busy for up to its time limit.
      ingestion.cancel(subtree.map((item) => item.id));
      await sweepDeletedBlobs().catch((error: unknown) => deps.warn("could not remove the files of deleted items", error));
      return subtree.length;
    },

    async retry(userId: number, id: number) {
      const item = await requireItem(userId, id);
      if (item.type === "folder") throw badRequest("Folders are not processed");
      // Processing it again would fail it and drop the text it still has (a backup without the file restored it).
      if (item.type === "file" && (!item.storageKey || (await blobs.size(item.storageKey)) === null))
        throw new AppError("file_missing", 409, `${STORED_FILE_MISSING}, so it cannot be processed again`);
      if (item.status === "queued" || item.status === "processing") throw badRequest("The item is already being processed");
      if (item.type === "url" && !item.url) throw badRequest("The link has no URL");
      await ingestion.enqueue(item);
      return apiItem(userId, id);
    },

    async download(userId: number, id: number): Promise<{ filename: string; contentType: string; body: Readable | string }> {
      const item = await requireItem(userId, id);
      if (item.type === "folder") throw badRequest("Folders cannot be downloaded");
      if (item.type === "note") return { filename: `${item.name.replace(/\.{3}$/, "")}.txt`, contentType: "text/plain; charset=utf-8", body: item.content };
      if (item.type === "url") {
        return { filename: `${item.name}.url`, contentType: "text/plain; charset=utf-8", body: `[InternetShortcut]\r\nURL=${item.url ?? ""}\r\n` };
      }
      if (!item.storageKey || (await blobs.size(item.storageKey)) === null) throw notFound(STORED_FILE_MISSING);
      // The type comes from the checked extension, never from what the uploader claimed.
      return {
        filename: item.name,
        contentType: downloadContentType(item.name),
        body: createReadStream(blobs.pathOf(item.storageKey)),
      };
    },
  };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
