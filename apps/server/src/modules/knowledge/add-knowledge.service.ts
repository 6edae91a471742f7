import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import {
  UNSUPPORTED_FILE_TYPE_MESSAGE,
  UNSUPPORTED_FILE_TYPE_TITLE,
  type ArchiveResult,
  type KnowledgeItem,
  type ProcessNoteRequest,
  type ProcessUrlRequest,
} from "@sage/contracts/knowledge";
import { AppError, badRequest } from "../../http/app-error.ts";
import type { Job } from "../../jobs/job-queue.ts";
import { BlobTooLargeError, type BlobStore } from "../../store/blob-store.ts";
import { VECTOR_WARNING, type Ingestion } from "./ingestion.ts";
import { cleanFilename } from "./clean-filename.ts";
import type { FolderPaths } from "./folder-paths.ts";
import { supportedExtension } from "../../documents/documents.ts";
import { isWebUrl, type ItemPlacement, type Placement } from "./item-placement.ts";
import { readZipUpload, ZIP_LIMITS } from "./read-zip-upload.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";
import { toApiItem, type KnowledgeService } from "./knowledge.service.ts";

export interface StoredUpload {
  filename: string;
  mimeType: string;
  key: string;
  size: number;
  contentHash: string;
}

/** How an upload ended: already there, read and indexed, kept without its text, or still being processed. */
export type UploadOutcome =
  | { kind: "duplicate"; file: KnowledgeItem }
  | { kind: "ready"; file: KnowledgeItem }
  | { kind: "not-processed"; file: KnowledgeItem; reason: string }
  | { kind: "in-background"; file: KnowledgeItem }
  | { kind: "archive"; file: KnowledgeItem; archive: ArchiveResult };

export type UrlOutcome =
  { kind: "ready"; urlInfo: UrlInfo; chunkCount: number } | { kind: "failed"; urlInfo: UrlInfo; reason: string } | { kind: "in-background"; urlInfo: UrlInfo };

interface UrlInfo {
  name: string;
  url: string;
  user_id: number;
  conversation_id: number;
  parent_id: number;
  file_id: number;
}

const isArchiveName = (name: string) => /\.zip$/i.test(name);

/**
 * The ways knowledge comes in: uploads, web links and notes. Small ones are processed before answering; large or
 * slow ones continue as a background job.
 */
export function createAddKnowledgeService(deps: {
  repo: KnowledgeRepo;
  blobs: BlobStore;
  placement: ItemPlacement;
  folders: FolderPaths;
  ingestion: Ingestion;
  knowledge: KnowledgeService;
  limits: {
    maxUploadBytes: number;
    /** Uploads up to this size are processed within the request (when they finish in time). */
    inlineMaxBytes: number;
  };
}) {
  const { repo, blobs, placement, folders, ingestion, knowledge } = deps;
  const fileTooLarge = () => new AppError("file_too_large", 413, new BlobTooLargeError(deps.limits.maxUploadBytes).message);

  /** Stores bytes as a blob (bounded like an upload), hashing them on the way. */
  async function storeStream(stream: Readable): Promise<{ key: string; size: number; contentHash: string }> {
    const hash = createHash("sha256");
    stream.on("data", (chunk: Buffer) => hash.update(chunk));
    try {
      const { key, size } = await blobs.put(stream, { maxBytes: deps.limits.maxUploadBytes });
      return { key, size, contentHash: hash.digest("hex") };
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw fileTooLarge();
      throw error;
    }
  }

  /** The folders of a relative path ('Board/2024/deck.pptx' -> Board, 2024), found or made below the placement. */
  const foldersOf = (relativePath: string | undefined) =>
    relativePath
      ? relativePath
          .split("/")
          .slice(0, -1)
          .map((part) => part.trim())
      : [];

  /**
   * A .zip becomes a folder named after it; each entry of a supported type becomes an item in the folders of its
   * path there, ingested as its own job. Every entry is checked and stored before anything is registered, so a
   * bad archive changes nothing.
   */
  async function finishArchive(userId: number, stored: StoredUpload, where: Placement, description: string): Promise<UploadOutcome> {
    const entries: Array<{ path: string[]; key: string; size: number; contentHash: string }> = [];
    let listing;
    try {
      listing = await readZipUpload(
        blobs.pathOf(stored.key),
        { ...ZIP_LIMITS, maxEntryBytes: deps.limits.maxUploadBytes },
        (entry) => !!supportedExtension(entry.name),
        async (entry, stream) => {
          entries.push({ path: entry.name.split("/"), ...(await storeStream(stream)) });
        },
      );
    } catch (error) {
      await blobs.remove(entries.map((entry) => entry.key));
      throw error;
    } finally {
      await blobs.remove([stored.key]);
    }
    const root = await folders.ensure(userId, where, [stored.filename.replace(/\.zip$/i, "").trim() || "archive"]);
    const archive: ArchiveResult = { folderId: root.parentId!, added: 0, duplicates: 0, skipped: listing.ignored.slice(0, 100) };
    for (const entry of entries) {
      const at = await folders.ensure(userId, root, entry.path.slice(0, -1));
      const duplicate = await repo.findDuplicate({ userId, conversationId: at.conversationId, parentId: at.parentId, contentHash: entry.contentHash });
      if (duplicate && duplicate.status !== "failed") {
        await blobs.remove([entry.key]);
        archive.duplicates += 1;
        continue;
      }
      if (duplicate) await knowledge.remove(userId, duplicate.id);
      const id = await placement.insertPlaced(userId, at, {
        type: "file",
        name: cleanFilename(entry.path.at(-1)!),
        description,
        size: entry.size,
        storageKey: entry.key,
        contentHash: entry.contentHash,
        status: "queued",
      });
      await ingestion.enqueue({ id, userId });
      archive.added += 1;
    }
    return { kind: "archive", file: await knowledge.apiItem(userId, archive.folderId), archive };
  }

  return {
    /** Streams an upload's bytes to disk (hashing them on the way) after checking the extension. */
    async storeUpload(filename: string, mimeType: string, stream: Readable): Promise<StoredUpload> {
      const name = cleanFilename(filename);
      if (!supportedExtension(name) && !isArchiveName(name)) {
        stream.resume();
        throw new AppError("unsupported_file_type", 415, `${UNSUPPORTED_FILE_TYPE_TITLE}. ${UNSUPPORTED_FILE_TYPE_MESSAGE}`);
      }
      return { filename: name, mimeType, ...(await storeStream(stream)) };
    },

    maxUploadBytes: deps.limits.maxUploadBytes,
    fileTooLarge,

    async discardUpload(stored: StoredUpload | undefined) {
      if (stored) await blobs.remove([stored.key]);
    },

    /** Registers a stored upload where the user put it; the same bytes in the same place are a duplicate. */
    async finishUpload(
      userId: number,
      stored: StoredUpload,
      input: { conversationId?: number; parentId?: number; description?: string; relativePath?: string },
      /** `text`: the file's whole text, when SAGE wrote the file from text it holds (read here when short). */
      options: { waitBriefly?: boolean; text?: string } = {},
    ): Promise<UploadOutcome> {
      const placed = await placement.placement(userId, input);
      if (stored.size === 0) throw badRequest("The file is empty");
      const where = await folders.ensure(userId, placed, foldersOf(input.relativePath));
      if (isArchiveName(stored.filename)) return finishArchive(userId, stored, where, input.description ?? "");
      const duplicate = await repo.findDuplicate({ userId, conversationId: where.conversationId, parentId: where.parentId, contentHash: stored.contentHash });
      if (duplicate && duplicate.status !== "failed") {
        await blobs.remove([stored.key]);
        return { kind: "duplicate", file: toApiItem(duplicate) };
      }
      if (duplicate) await knowledge.remove(userId, duplicate.id);
      const id = await placement.insertPlaced(userId, where, {
        type: "file",
        name: stored.filename,
        description: input.description ?? "",
        mimeType: stored.mimeType,
        size: stored.size,
        storageKey: stored.key,
        contentHash: stored.contentHash,
        status: "queued",
      });
      const job = options.text !== undefined ? await ingestion.ingestShortText({ id, userId }, options.text) : await ingestion.enqueue({ id, userId });
      if (job && stored.size <= deps.limits.inlineMaxBytes && options.waitBriefly !== false) await ingestion.waitBriefly(job);
      const file = await knowledge.apiItem(userId, id);
      if (file.status === "ready") return { kind: "ready", file };
      if (file.status === "stored" || file.status === "failed")
        return { kind: "not-processed", file, reason: file.statusReason ?? "The file could not be processed" };
      return { kind: "in-background", file };
    },

    async processUrl(userId: number, input: ProcessUrlRequest): Promise<UrlOutcome> {
      const url = input.url.trim();
      if (!isWebUrl(url)) throw badRequest("Please enter a valid http or https URL");
      const where = await placement.placement(userId, input);
      const { id, name } = await placement.insertUrlItem(userId, where, input, url, { status: "queued" });
      await ingestion.waitBriefly(await ingestion.enqueue({ id, userId }));
      const item = await knowledge.apiItem(userId, id);
      const urlInfo = { name, url, user_id: userId, conversation_id: where.conversationId ?? 0, parent_id: where.parentId ?? 0, file_id: id };
      if (item.status === "ready") return { kind: "ready", urlInfo, chunkCount: item.chunkCount };
      // The entry stays as a reference and can be retried from the list.
      if (item.status === "failed" || item.status === "stored")
        return { kind: "failed", urlInfo, reason: item.statusReason ?? "The page could not be processed" };
      return { kind: "in-background", urlInfo };
    },

    /** Processes a note (new, or an existing one by fileId); a failed embedding only adds a warning. */
    async processNote(userId: number, input: ProcessNoteRequest) {
      let itemId: number;
      let job: Job | undefined;
      if (input.fileId) {
        const item = await knowledge.requireItem(userId, input.fileId);
        if (item.type !== "note") throw badRequest("The item is not a note");
        itemId = item.id;
        if (input.content !== undefined && input.content.trim() && input.content !== item.content) {
          await repo.updateItem(item.id, { content: input.content, size: Buffer.byteLength(input.content) });
          job = await ingestion.ingestNote(item);
        } else {
          const latest = await ingestion.latestJobFor(item.id);
          job = latest && latest.status !== "failed" ? latest : await ingestion.enqueue(item);
        }
      } else {
        const created = await knowledge.createEntry(userId, { ...input, type: "note" });
        itemId = created.id;
        // A short note is indexed already; only a long one has a job to wait for.
        if (created.status !== "ready") job = await ingestion.latestJobFor(itemId);
      }
      if (job) await ingestion.waitBriefly(job);
      const file = await knowledge.apiItem(userId, itemId);
      const warning = file.status === "ready" && !file.statusReason ? undefined : (file.statusReason ?? VECTOR_WARNING);
      return { status: "success" as const, file, chunks_processed: file.chunkCount, ...(warning ? { warning } : {}) };
    },
  };
}

export type AddKnowledgeService = ReturnType<typeof createAddKnowledgeService>;
