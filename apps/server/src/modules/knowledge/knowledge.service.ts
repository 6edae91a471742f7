import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  MOVE_INTO_ITSELF_MESSAGE,
  UNSUPPORTED_FILE_TYPE_MESSAGE,
  UNSUPPORTED_FILE_TYPE_TITLE,
  nameFromNote,
  nameFromUrl,
  type CreateFileRequest,
  type CreateFolderRequest,
  type KnowledgeItem,
  type ProcessNoteRequest,
  type ProcessUrlRequest,
  type UpdateFileRequest,
} from "@sage/contracts/knowledge";
import { AppError, badRequest, notFound } from "../../http/app-error.ts";
import type { SafeFetchResult } from "../../http/safe-fetch.ts";
import type { Job, JobQueue } from "../../jobs/job-queue.ts";
import { BlobTooLargeError, type BlobStore } from "../../store/blob-store.ts";
import type { KnowledgeItemRow } from "../../store/schema.ts";
import { chunkSections } from "./ingestion/chunker.ts";
import { convertFile, supportedExtension } from "./ingestion/convert-file.ts";
import { convertHtml } from "./ingestion/convert-html.ts";
import { convertPdf } from "./ingestion/convert-pdf.ts";
import { convertTxt } from "./ingestion/convert-txt.ts";
import { ConversionError, documentFromText, type ExtractedDocument } from "./ingestion/extracted-document.ts";
import { isSelfOrDescendant, joinPath, nestItems, repath } from "./knowledge-tree.ts";
import type { ItemWithChunkCount, KnowledgeRepo } from "./knowledge.repo.ts";

export const INGEST_JOB = "knowledge.ingest";
const DOWNLOAD_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  doc: "application/msword",
  txt: "text/plain; charset=utf-8",
};
export const REFERENCE_ONLY_REASON = "Added as a reference without content processing";
export const VECTOR_WARNING = "Saved, but it might not appear in search results: semantic indexing failed";

/** Provided by the retrieval module: embeds an item's stored chunks. Failures only produce a warning. */
export interface KnowledgeVectorizer {
  indexItem(itemId: number): Promise<void>;
}

export interface KnowledgeServiceDeps {
  repo: KnowledgeRepo;
  blobs: BlobStore;
  jobs: JobQueue;
  fetchUrl(url: string): Promise<SafeFetchResult>;
  /** A getter so the retrieval module can be wired after this one. */
  vectorizer?: () => KnowledgeVectorizer | undefined;
  warn(message: string, error?: unknown): void;
  limits: {
    maxUploadBytes: number;
    /** Uploads up to this size are processed within the request (when they finish in time). */
    inlineMaxBytes: number;
    /** How long a request waits for its ingestion before answering 202 and leaving it to the queue. */
    inlineWaitMs: number;
  };
}

export interface StoredUpload {
  filename: string;
  mimeType: string;
  key: string;
  size: number;
  contentHash: string;
}

export function toApiItem(row: ItemWithChunkCount): KnowledgeItem {
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
    chunkCount: Number(row.chunkCount ?? 0),
    createdAt: row.createdAt,
  };
}

/** A user's filename reduced to its last segment, without control characters (it is only ever a label). */
function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 255) || "file";
}

export function createKnowledgeService(deps: KnowledgeServiceDeps) {
  const { repo, blobs, jobs } = deps;

  async function requireItem(userId: number, id: number) {
    const item = await repo.getItem(userId, id);
    if (!item) throw notFound("Item not found");
    return item;
  }

  /** Where a new item goes: the conversation must be the user's, the parent one of the user's folders. */
  /** A web link entry where the user put it, named by the spec's rule unless they named it. */
  async function insertUrlItem(
    userId: number,
    where: Awaited<ReturnType<typeof placement>>,
    input: { name?: string; description?: string },
    url: string,
    state: { status: "queued" | "stored"; statusReason?: string },
  ) {
    const name = input.name?.trim() || nameFromUrl(url);
    const id = await repo.insertItem({
      userId,
      conversationId: where.conversationId,
      parentId: where.parentId,
      type: "url",
      name,
      path: joinPath(where.parentPath, name),
      description: input.description ?? "",
      url,
      ...state,
    });
    return { id, name };
  }

  async function placement(userId: number, input: { conversationId?: number; parentId?: number }) {
    const conversationId = input.conversationId ? input.conversationId : null;
    if (conversationId !== null && !(await repo.conversationBelongsTo(userId, conversationId))) throw notFound("Conversation not found");
    const parentId = input.parentId ? input.parentId : null;
    let parentPath: string | null = null;
    if (parentId !== null) {
      const parent = await repo.getItem(userId, parentId);
      if (!parent) throw notFound("Parent folder not found");
      if (parent.type !== "folder") throw badRequest("The parent must be a folder");
      parentPath = parent.path;
    }
    return { conversationId, parentId, parentPath };
  }

  async function extract(item: KnowledgeItemRow): Promise<ExtractedDocument> {
    if (item.type === "note") return documentFromText(item.content, "The note is empty");
    if (item.type === "file") {
      const extension = supportedExtension(item.name);
      if (!extension || !item.storageKey) throw new ConversionError(`${UNSUPPORTED_FILE_TYPE_TITLE}. ${UNSUPPORTED_FILE_TYPE_MESSAGE}`);
      return convertFile(extension, await readFile(blobs.pathOf(item.storageKey)));
    }
    if (item.type === "url" && item.url) {
      const page = await deps.fetchUrl(item.url);
      await repo.updateItem(item.id, { size: page.body.length });
      if (page.contentType.includes("pdf") || /\.pdf$/i.test(new URL(page.url).pathname)) return convertPdf(page.body);
      if (page.contentType.includes("html") || page.contentType === "") return convertHtml(page.body.toString("utf8"));
      if (page.contentType.startsWith("text/") || page.contentType.includes("json")) return convertTxt(page.body);
      throw new ConversionError(`Pages of type ${page.contentType.split(";")[0]} cannot be processed`);
    }
    throw new ConversionError("Nothing to process");
  }

  /** The ingestion pipeline for one item: extract -> chunk -> store chunks (FTS follows by trigger) -> vectorise. */
  async function ingest(itemId: number): Promise<void> {
    const item = await repo.getItemById(itemId);
    if (!item || item.type === "folder") return;
    await repo.updateItem(item.id, { status: "processing", statusReason: null });
    try {
      const document = await extract(item);
      if (document.notProcessedReason) {
        await repo.replaceChunks(item, []);
        await repo.updateItem(item.id, { status: "stored", statusReason: document.notProcessedReason });
        return;
      }
      await repo.replaceChunks(item, chunkSections(document.sections));
      let reason: string | null = null;
      const vectorizer = deps.vectorizer?.();
      if (vectorizer) {
        try {
          await vectorizer.indexItem(item.id);
        } catch (error) {
          deps.warn(`vectorising knowledge item ${item.id} failed`, error);
          reason = VECTOR_WARNING;
        }
      }
      await repo.updateItem(item.id, { status: "ready", statusReason: reason });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // Chunks commit in batches, so a failure part-way must not leave half a document searchable.
      await repo.replaceChunks(item, []).catch(() => undefined);
      await repo.updateItem(item.id, { status: "failed", statusReason: reason });
      throw error;
    }
  }

  jobs.register<{ itemId: number }>(INGEST_JOB, async ({ payload }) => ingest(payload.itemId), {
    onInterrupted: "resume",
    onFailed: async (job: Job, reason: string) => {
      const item = job.itemId ? await repo.getItemById(job.itemId) : undefined;
      if (item && item.status !== "failed") await repo.updateItem(item.id, { status: "failed", statusReason: reason });
    },
  });

  async function enqueueIngest(item: { id: number; userId: number }) {
    await repo.updateItem(item.id, { status: "queued", statusReason: null });
    return jobs.enqueue({ kind: INGEST_JOB, userId: item.userId, itemId: item.id, payload: { itemId: item.id } });
  }

  /** Waits for a job, but no longer than the inline budget; true when it finished. */
  async function waitBriefly(job: Job, budgetMs = deps.limits.inlineWaitMs): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), budgetMs)));
    const finished = jobs.waitFor(job.id).then(() => true as const);
    try {
      return await Promise.race([finished, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function deleteSubtree(userId: number, id: number) {
    const nodes = await repo.subtree(userId, id);
    await repo.deleteItem(userId, id);
    await blobs.remove(nodes.map((node) => node.storageKey));
    return nodes.length;
  }

  const service = {
    ingest,

    async list(userId: number, filter: { conversationId?: number; parentId?: number }) {
      const rows = await repo.listItems(userId, {
        conversationId: filter.conversationId === undefined ? undefined : filter.conversationId || null,
        parentId: filter.parentId === undefined ? undefined : filter.parentId || null,
      });
      return rows.map(toApiItem);
    },

    async folderTree(userId: number) {
      return nestItems((await repo.listItems(userId, { type: "folder" })).map(toApiItem));
    },

    async conversationFiles(userId: number, conversationId: number) {
      if (!(await repo.conversationBelongsTo(userId, conversationId))) throw notFound("Conversation not found");
      return (await repo.listItems(userId, { conversationId })).map(toApiItem);
    },

    async createFolder(userId: number, input: CreateFolderRequest) {
      const where = await placement(userId, input);
      const id = await repo.insertItem({
        userId,
        conversationId: where.conversationId,
        parentId: where.parentId,
        type: "folder",
        name: input.name,
        path: joinPath(where.parentPath, input.name),
        status: "ready",
      });
      return toApiItem((await repo.getItem(userId, id))!);
    },

    /** POST /api/files: a note (queued for ingestion) or a URL kept as a plain reference (the spec's fallback). */
    async createEntry(userId: number, input: CreateFileRequest) {
      const where = await placement(userId, input);
      const content = input.content ?? "";
      if (input.type === "note") {
        if (!content.trim()) throw badRequest("Note content is required");
        const name = input.name?.trim() || nameFromNote(content);
        const id = await repo.insertItem({
          userId,
          conversationId: where.conversationId,
          parentId: where.parentId,
          type: "note",
          name,
          path: joinPath(where.parentPath, name),
          description: input.description ?? "",
          content,
          size: Buffer.byteLength(content),
          status: "queued",
        });
        await enqueueIngest({ id, userId });
        return toApiItem((await repo.getItem(userId, id))!);
      }
      const url = (input.url ?? content).trim();
      if (!isWebUrl(url)) throw badRequest("Please enter a valid http or https URL");
      const { id } = await insertUrlItem(userId, where, input, url, { status: "stored", statusReason: REFERENCE_ONLY_REASON });
      return toApiItem((await repo.getItem(userId, id))!);
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
      if (input.name !== undefined || input.parentId !== undefined) {
        const subtree = await repo.subtree(userId, id);
        await repo.setPaths(repath(subtree, { name, parentPath }));
      }
      if (reingest) await enqueueIngest({ id, userId });
      return toApiItem((await repo.getItem(userId, id))!);
    },

    /** Deletes the item and, for a folder, everything inside; chunks and jobs go by cascade, bytes here. */
    async remove(userId: number, id: number) {
      await requireItem(userId, id);
      return deleteSubtree(userId, id);
    },

    async retry(userId: number, id: number) {
      const item = await requireItem(userId, id);
      if (item.type === "folder") throw badRequest("Folders are not processed");
      if (item.status === "queued" || item.status === "processing") throw badRequest("The item is already being processed");
      if (item.type === "url" && !item.url) throw badRequest("The link has no URL");
      await enqueueIngest(item);
      return toApiItem((await repo.getItem(userId, id))!);
    },

    async download(userId: number, id: number): Promise<{ filename: string; contentType: string; body: Readable | string }> {
      const item = await requireItem(userId, id);
      if (item.type === "folder") throw badRequest("Folders cannot be downloaded");
      if (item.type === "note") return { filename: `${item.name.replace(/\.{3}$/, "")}.txt`, contentType: "text/plain; charset=utf-8", body: item.content };
      if (item.type === "url") {
        return { filename: `${item.name}.url`, contentType: "text/plain; charset=utf-8", body: `[InternetShortcut]\r\nURL=${item.url ?? ""}\r\n` };
      }
      if (!item.storageKey || (await blobs.size(item.storageKey)) === null) throw notFound("The stored file is missing");
      // The type comes from the checked extension, never from what the uploader claimed.
      return {
        filename: item.name,
        contentType: DOWNLOAD_TYPES[supportedExtension(item.name) ?? ""] ?? "application/octet-stream",
        body: createReadStream(blobs.pathOf(item.storageKey)),
      };
    },

    /** Streams an upload's bytes to disk (hashing them on the way) after checking the extension. */
    async storeUpload(filename: string, mimeType: string, stream: Readable): Promise<StoredUpload> {
      const name = cleanFilename(filename);
      if (!supportedExtension(name)) {
        stream.resume();
        throw new AppError("unsupported_file_type", 415, `${UNSUPPORTED_FILE_TYPE_TITLE}. ${UNSUPPORTED_FILE_TYPE_MESSAGE}`);
      }
      const hash = createHash("sha256");
      stream.on("data", (chunk: Buffer) => hash.update(chunk));
      try {
        const { key, size } = await blobs.put(stream, { maxBytes: deps.limits.maxUploadBytes });
        return { filename: name, mimeType, key, size, contentHash: hash.digest("hex") };
      } catch (error) {
        if (error instanceof BlobTooLargeError) throw new AppError("file_too_large", 413, error.message);
        throw error;
      }
    },

    async discardUpload(stored: StoredUpload | undefined) {
      if (stored) await blobs.remove([stored.key]);
    },

    /** Registers a stored upload; small ones are processed before answering, large or slow ones continue as a job. */
    async finishUpload(userId: number, stored: StoredUpload, input: { conversationId?: number; parentId?: number; description?: string }) {
      const where = await placement(userId, input);
      if (stored.size === 0) throw badRequest("The file is empty");
      const duplicate = await repo.findDuplicate({ userId, conversationId: where.conversationId, parentId: where.parentId, contentHash: stored.contentHash });
      if (duplicate && duplicate.status !== "failed") {
        await blobs.remove([stored.key]);
        return {
          httpStatus: 200,
          body: { status: "duplicate" as const, file: toApiItem(duplicate), chunks_processed: Number(duplicate.chunkCount), processingResult: { status: "duplicate" } },
        };
      }
      if (duplicate) await deleteSubtree(userId, duplicate.id);
      const id = await repo.insertItem({
        userId,
        conversationId: where.conversationId,
        parentId: where.parentId,
        type: "file",
        name: stored.filename,
        path: joinPath(where.parentPath, stored.filename),
        description: input.description ?? "",
        mimeType: stored.mimeType,
        size: stored.size,
        storageKey: stored.key,
        contentHash: stored.contentHash,
        status: "queued",
      });
      const job = await enqueueIngest({ id, userId });
      if (stored.size <= deps.limits.inlineMaxBytes) await waitBriefly(job);
      const item = (await repo.getItem(userId, id))!;
      const file = toApiItem(item);
      if (item.status === "ready") {
        return { httpStatus: 200, body: { status: "success" as const, file, chunks_processed: file.chunkCount, processingResult: { status: "success" } } };
      }
      if (item.status === "stored" || item.status === "failed") {
        const reason = item.statusReason ?? "The file could not be processed";
        return {
          httpStatus: 200,
          body: { status: "stored" as const, file, chunks_processed: 0, processingResult: { status: item.status, error: reason } },
        };
      }
      return { httpStatus: 202, body: { status: "processing_in_background" as const, file, chunks_processed: 0, processingResult: { status: "queued" } } };
    },

    async processUrl(userId: number, input: ProcessUrlRequest) {
      const url = input.url.trim();
      if (!isWebUrl(url)) throw badRequest("Please enter a valid http or https URL");
      const where = await placement(userId, input);
      const { id, name } = await insertUrlItem(userId, where, input, url, { status: "queued" });
      const job = await enqueueIngest({ id, userId });
      await waitBriefly(job);
      const item = (await repo.getItem(userId, id))!;
      const url_info = { name, url, user_id: userId, conversation_id: where.conversationId ?? 0, parent_id: where.parentId ?? 0, file_id: id };
      if (item.status === "ready") return { httpStatus: 200, body: { status: "success" as const, url_info, chunks_processed: Number(item.chunkCount) } };
      if (item.status === "failed" || item.status === "stored") {
        // The entry stays as a reference (the spec's fallback) and can be retried from the list.
        return { httpStatus: 422, body: { status: "failed" as const, url_info, chunks_processed: 0, error: item.statusReason ?? "The page could not be processed" } };
      }
      return { httpStatus: 202, body: { status: "processing_in_background" as const, url_info, chunks_processed: 0 } };
    },

    async processNote(userId: number, input: ProcessNoteRequest) {
      let item: ItemWithChunkCount;
      let job: Job | undefined;
      if (input.fileId) {
        item = await requireItem(userId, input.fileId);
        if (item.type !== "note") throw badRequest("The item is not a note");
        if (input.content !== undefined && input.content.trim() && input.content !== item.content) {
          await repo.updateItem(item.id, { content: input.content, size: Buffer.byteLength(input.content) });
          job = await enqueueIngest(item);
        } else {
          const latest = await repo.latestJobFor(item.id);
          job = latest && latest.status !== "failed" ? latest : await enqueueIngest(item);
        }
      } else {
        const created = await service.createEntry(userId, { ...input, type: "note" });
        item = (await repo.getItem(userId, created.id))!;
        job = await repo.latestJobFor(item.id);
      }
      if (job) await waitBriefly(job);
      const fresh = (await repo.getItem(userId, item.id))!;
      const file = toApiItem(fresh);
      const warning = fresh.status === "ready" && !fresh.statusReason ? undefined : (fresh.statusReason ?? VECTOR_WARNING);
      return { status: "success" as const, file, chunks_processed: file.chunkCount, ...(warning ? { warning } : {}) };
    },
  };
  return service;
}

function isWebUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname;
  } catch {
    return false;
  }
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
