import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { AppModule } from "../../http/app-module.ts";
import type { SafeFetchResult } from "../../http/safe-fetch.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { Store } from "../../store/open-store.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import { createAddKnowledgeService } from "./add-knowledge.service.ts";
import { createIngestion, type KnowledgeIndex } from "./ingestion.ts";
import { createWebPages, type WebPagesPort } from "./web-pages.ts";
import { createDocumentReader, type DocumentReader, type DocumentReaderOptions } from "../../documents/documents.ts";
import { createItemPlacement } from "./item-placement.ts";
import { createFolderPaths } from "./folder-paths.ts";
import type { KnowledgeBackupRows } from "./knowledge-backup-rows.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { registerKnowledgeRoutes } from "./knowledge.routes.ts";
import { createKnowledgeService } from "./knowledge.service.ts";
import { createKnowledgeFiles, type KnowledgeFiles } from "./knowledge-files.ts";
import { createFileShares, type MadeShare } from "./file-shares.ts";
import { registerFileShareRoutes } from "./file-shares.routes.ts";
import { createMailKnowledge, type MailKnowledgePort } from "./mail-knowledge.ts";
import { createTurnAttachments, type TurnAttachmentsPort } from "./turn-attachments.ts";

export type { KnowledgeIndex } from "./ingestion.ts";
export type { MailKnowledgePort } from "./mail-knowledge.ts";
export { MAIL_FOLDER } from "./mail-place.ts";
export { attachmentsFolderName } from "./mail-attachments.ts";
export type { TurnAttachment, TurnAttachmentsPort } from "./turn-attachments.ts";
export type { ReadPage, WebPagesPort } from "./web-pages.ts";
export type { ItemBackupInput, ItemBackupRow, ItemExport, KnowledgeSummary, RestoreDecisions, RestoredItem } from "./knowledge-backup-rows.ts";
export { restoredItemFromBackup } from "./knowledge-backup-rows.ts";

/** Uploads up to this size are processed within the request (when they finish in time). */
export const INLINE_INGEST_MAX_BYTES = 1_048_576;
export const INLINE_INGEST_WAIT_MS = 8_000;
/** Documents read at once: the job queue runs two jobs at a time. */
const INGEST_CONCURRENCY = 2;
/** An office document (a zip) may expand to this much; a docx of 300 MB of XML is a bomb, not a report. */
const MAX_EXPANDED_BYTES = 256 * 1_048_576;
/** Text one document may yield (a 50 MB upload of plain text is the largest legitimate case). */
const MAX_TEXT_BYTES = 64 * 1_048_576;
/** A document reading process with nothing to do exits after this long (the next document starts another). */
const CONVERSION_IDLE_MS = 60_000;

/**
 * What a backup needs of the knowledge base: its items and their original files, read out and written back.
 * Its writes each run in a short transaction of their own, a batch at a time.
 */
export interface KnowledgeBackupPort extends KnowledgeBackupRows {
  /** The size of an item's stored bytes, or null when the file is missing. */
  storedFileSize(storageKey: string): Promise<number | null>;
  openStoredFile(storageKey: string): Readable;
  /** Keeps deleted items' files on disk while an export reads them; the answer releases them. */
  holdFiles(): () => Promise<void>;
  /** A key for an original file about to be restored: the item row records it before the bytes are written. */
  newFileKey(): string;
  writeFile(key: string, source: Readable): Promise<{ size: number }>;
  /** Queues items again (a backup caught them while they were being processed). */
  requeue(userId: number, itemIds: number[]): Promise<void>;
  /** Removes the stored files of items that were deleted. */
  sweepDeletedBlobs(): Promise<void>;
}

/** Files SAGE made (createDocument): saved in a conversation's knowledge and read like any upload. */
export interface GeneratedFilesPort {
  /** Stores the file and queues its reading; answers the item (an identical file already there: that one). */
  add(
    userId: number,
    conversationId: number,
    file: { name: string; mimeType: string; bytes: Buffer; description: string; madeFrom?: string[] },
  ): Promise<{ id: number; name: string }>;
}

/** Files that came with a message in a channel (a photo, a PDF): saved in the conversation's knowledge and read. */
export interface ReceivedFilesPort {
  /**
   * Stores the file like an upload and waits up to `waitMs` for it to be read; answers the item, and why it could not
   * be read when it could not. A type SAGE does not read is refused with the upload's own message (an AppError).
   */
  add(
    userId: number,
    conversationId: number,
    file: { name: string; mimeType: string; bytes: Buffer },
    waitMs: number,
  ): Promise<{ id: number; name: string; ready: boolean; reason?: string }>;
  /** Text SAGE holds (a forwarded message) kept as a .txt file of the conversation, read at once when short. */
  addText(userId: number, conversationId: number, name: string, text: string): Promise<{ id: number; name: string }>;
}

export interface KnowledgeModule extends AppModule {
  /** Files that came with a channel's messages (issue 49). */
  received: ReceivedFilesPort;
  backup: KnowledgeBackupPort;
  mail: MailKnowledgePort;
  /** Files attached to a chat message (issue 32). */
  attachments: TurnAttachmentsPort;
  generated: GeneratedFilesPort;
  /** Web pages read on demand (research, decision 046). */
  pages: WebPagesPort;
  /** Notes SAGE files for the user (a meeting's "Add notes", decision 099): searchable and read by the commitments scan. */
  notes: { add(userId: number, name: string, content: string): Promise<{ id: number; name: string }> };
  /** The knowledge base by folder and by name (the assistant's listFolder and readFile, issue 47). */
  files: KnowledgeFiles & {
    appendToNote(userId: number, name: string, text: string): Promise<{ name: string } | null>;
    /** Deletes an item as the Knowledge Base screen's Delete does (DELETE /api/knowledge/items/{id}); answers how many went. */
    remove(userId: number, id: number): Promise<number>;
  };
  /** Files shared by link (the assistant's shareFile, decision 068): the link's token is known only to the caller. */
  shares: { share(userId: number, item: { id: number; name: string }, days?: number): Promise<MadeShare | null> };
}

/** The knowledge base: folders, files, links and notes, their ingestion jobs and routes. */
export function createKnowledgeModule(deps: {
  /** SQLite's synchronous statements when the store has them (decision 058). */
  store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>;
  blobs: BlobStore;
  jobs: JobQueue;
  index: KnowledgeIndex;
  conversations: ConversationsPort;
  fetchUrl(url: string): Promise<SafeFetchResult>;
  maxUploadBytes: number;
  documentLimits: {
    memoryMb: number;
    timeoutMs: number;
    maxTotalMs?: number;
    maxPages?: number;
    keepWarm?: boolean;
    env?: Record<string, string>;
    mail?: { maxAttachments: number; maxAttachmentBytes: number };
  };
  warn(message: string, error?: unknown): void;
  /** The clock shared links expire by (tests move it). */
  now?: () => Date;
  /** Opens the document reader (tests share one across their apps; see AppDeps.openDocuments). */
  openDocuments?: (options: DocumentReaderOptions) => DocumentReader;
}): KnowledgeModule {
  const repo = createKnowledgeRepo(deps.store);
  const placement = createItemPlacement({ repo, conversations: deps.conversations });
  const folders = createFolderPaths({ repo });
  const documents = (deps.openDocuments ?? createDocumentReader)({
    ...deps.documentLimits,
    size: INGEST_CONCURRENCY,
    maxExpandedBytes: MAX_EXPANDED_BYTES,
    maxTextBytes: MAX_TEXT_BYTES,
    idleMs: CONVERSION_IDLE_MS,
  });
  const ingestion = createIngestion({
    repo,
    blobs: deps.blobs,
    jobs: deps.jobs,
    index: deps.index,
    folders,
    fetchUrl: deps.fetchUrl,
    documents,
    warn: deps.warn,
    inlineWaitMs: INLINE_INGEST_WAIT_MS,
  });
  const knowledge = createKnowledgeService({ repo, blobs: deps.blobs, placement, ingestion, index: deps.index, warn: deps.warn });
  const addKnowledge = createAddKnowledgeService({
    repo,
    blobs: deps.blobs,
    placement,
    folders,
    ingestion,
    knowledge,
    limits: { maxUploadBytes: deps.maxUploadBytes, inlineMaxBytes: INLINE_INGEST_MAX_BYTES },
  });
  const shares = createFileShares(deps.store.db, deps.now ?? (() => new Date()));
  const sweep = () => knowledge.sweepDeletedBlobs().catch((error: unknown) => deps.warn("could not remove the files of deleted items", error));
  deps.conversations.onDeleted(sweep);
  // A restored conversation's files that were not read yet (stopped when it was deleted) are read now.
  deps.conversations.onRestored(async (_userId, conversationId) => {
    for (const item of await repo.unreadInConversation(conversationId)) await ingestion.enqueue(item);
  });

  return {
    attachments: createTurnAttachments({ repo, blobs: deps.blobs, index: deps.index }),
    generated: {
      async add(userId, conversationId, file) {
        const stored = await addKnowledge.storeUpload(file.name, file.mimeType, Readable.from([file.bytes]));
        // Read in the background: the chat shows the file at once, and it becomes searchable when read.
        const outcome = await addKnowledge.finishUpload(userId, stored, { conversationId, description: file.description }, { waitBriefly: false });
        // Search ranks it below what it was made from, and its citations name those (issue 52 item 11).
        await repo.updateItem(outcome.file.id, { madeFrom: JSON.stringify(file.madeFrom ?? []) });
        return { id: outcome.file.id, name: outcome.file.name };
      },
    },
    received: {
      async add(userId, conversationId, file, waitMs) {
        const stored = await addKnowledge.storeUpload(file.name, file.mimeType, Readable.from([file.bytes]));
        const outcome = await addKnowledge.finishUpload(userId, stored, { conversationId }, { waitBriefly: false });
        if (outcome.kind === "archive") return { id: outcome.file.id, name: outcome.file.name, ready: true };
        const job = await ingestion.latestJobFor(outcome.file.id);
        if (job && job.status !== "done" && job.status !== "failed") await ingestion.waitBriefly(job, waitMs);
        const item = await knowledge.apiItem(userId, outcome.file.id);
        return { id: item.id, name: item.name, ready: item.status === "ready", ...(item.status === "ready" ? {} : { reason: item.statusReason ?? undefined }) };
      },
      async addText(userId, conversationId, name, text) {
        const stored = await addKnowledge.storeUpload(name, "text/plain", Readable.from([Buffer.from(text, "utf8")]));
        const outcome = await addKnowledge.finishUpload(userId, stored, { conversationId }, { text });
        return { id: outcome.file.id, name: outcome.file.name };
      },
    },
    pages: createWebPages({ fetchUrl: deps.fetchUrl, documents }),
    notes: {
      async add(userId, name, content) {
        const item = await knowledge.createEntry(userId, { type: "note", name, content });
        return { id: item.id, name: item.name };
      },
    },
    files: {
      ...createKnowledgeFiles(deps.store.db),
      /** Adds a line at the end of a note (read again for search); null when the user has no note of that name. */
      async appendToNote(userId: number, name: string, text: string) {
        const found = await createKnowledgeFiles(deps.store.db).byName(userId, name);
        if (!found || found.type !== "note") return null;
        const item = await repo.getItem(userId, found.id);
        if (!item) return null;
        const before = (item.content ?? "").replace(/\s+$/, "");
        await knowledge.update(userId, found.id, { content: before ? `${before}\n${text}` : text });
        return { name: found.name };
      },
      remove: (userId: number, id: number) => knowledge.remove(userId, id),
    },
    shares: {
      /** A link to one of the user's files or notes; null when it is gone (deleted while its card waited). */
      async share(userId, item, days) {
        const found = await repo.getItem(userId, item.id);
        if (!found || (found.type !== "file" && found.type !== "note")) return null;
        return shares.share(userId, { id: found.id, name: found.name }, days);
      },
    },
    mail: createMailKnowledge({ repo, blobs: deps.blobs, folders, queueNew: ingestion.queueNew, sweep }),
    backup: {
      summary: repo.summary,
      exportPage: repo.exportPage,
      storedFileSize: deps.blobs.size,
      openStoredFile: (storageKey) => createReadStream(deps.blobs.pathOf(storageKey)),
      holdFiles: knowledge.holdFiles,
      emptyStep: repo.emptyStep,
      insertRestored: repo.insertRestored,
      setParents: repo.setParents,
      newFileKey: deps.blobs.newKey,
      writeFile: (key, source) => deps.blobs.put(source, { key }),
      async requeue(userId, itemIds) {
        for (const id of itemIds) await ingestion.enqueue({ id, userId });
      },
      sweepDeletedBlobs: sweep,
    },
    async register(app) {
      // Files of items deleted just before a crash, and uploads a crash cut off, are removed at the next start.
      app.addHook("onReady", async () => {
        await deps.blobs.removeTemporaries().catch((error: unknown) => deps.warn("could not remove unfinished uploads", error));
        await sweep();
      });
      // Runs after the job queue has stopped (onClose hooks run last-registered first), so no document is cut.
      app.addHook("onClose", () => documents.close());
      registerKnowledgeRoutes(app, { knowledge, addKnowledge });
      registerFileShareRoutes(app, { shares, knowledge });
    },
  };
}
