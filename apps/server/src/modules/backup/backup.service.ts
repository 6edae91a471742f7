import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { countOf } from "@sage/contracts/text";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE_TITLE } from "@sage/contracts/retrieval";
import { AppError, notFound } from "../../http/app-error.ts";
import type { KnowledgeSnapshotRow } from "../../store/schema.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { RetrievalBackupPort } from "../retrieval/retrieval.module.ts";
import { ENTRY } from "./backup-format.ts";
import type { BackupPart } from "./backup-part.ts";
import type { BackupRepo } from "./backup.repo.ts";
import { checkBackup, type CheckedBackup } from "./check-backup.ts";
import { createPacer } from "./create-pacer.ts";
import { exportBackup } from "./export-backup.ts";
import { createKnowledgeSnapshots } from "./knowledge-snapshots.ts";
import { openBackupArchive } from "./open-backup-archive.ts";
import { restoreBackup } from "./restore-backup.ts";

export const RESTORE_RUNNING_MESSAGE = "Your knowledge base is being replaced by an import or a snapshot restore; try again when it has finished.";

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** What a user is told when an import or a restore failed after it had begun to replace their knowledge. */
function stoppedPartWay(reason: "import" | "restore", putBack: boolean, snapshot: KnowledgeSnapshotRow): AppError {
  const title = reason === "import" ? "Import Failed" : "Restore Failed";
  const message = putBack
    ? `${title}: the ${reason} stopped part-way, so your knowledge base was put back as it was before it. Nothing was lost.`
    : `${title}: the ${reason} stopped part-way, and putting back what was there stopped too. Your knowledge base as it was is kept as the snapshot of ${snapshot.createdAt} in Settings; restore it from there.`;
  return new AppError("import_interrupted", 500, message);
}

/** "This replaces 12 files, 3 notes and 2 folders": what an import or a snapshot restore would replace. */
export function replacesMessage(summary: { files: number; links: number; notes: number; folders: number; inConversations: number }): string {
  let message = `This replaces ${plural(summary.files + summary.links, "file")}, ${plural(summary.notes, "note")} and ${plural(summary.folders, "folder")}`;
  if (summary.inConversations > 0) message += ` (${summary.inConversations} of them in conversations)`;
  return message;
}

/**
 * Export and import of a user's knowledge base as one zip, and the automatic snapshots taken before every import,
 * reset and snapshot restore.
 */
export function createBackupService(deps: {
  repo: BackupRepo;
  knowledge: KnowledgeBackupPort;
  retrieval: RetrievalBackupPort;
  parts: BackupPart[];
  conversations: Pick<ConversationsPort, "ownsConversation">;
  tempDir: string;
  snapshotsDir: string;
  warn(message: string, error?: unknown): void;
}) {
  const { repo, knowledge, retrieval, parts } = deps;
  const ports = { knowledge, retrieval, parts };
  const snapshots = createKnowledgeSnapshots({ repo, dir: deps.snapshotsDir, ports, knowledge });
  const knownEntries = [...Object.values(ENTRY), ...parts.map((part) => `${part.name}.jsonl`)];

  /** The user's own conversations among those the backup links items to (other links land in the system base). */
  async function ownConversations(userId: number, ids: Set<number>) {
    const owned = new Set<number>();
    for (const id of ids) if (await deps.conversations.ownsConversation(userId, id)) owned.add(id);
    return owned;
  }

  /**
   * Opens and checks a backup (nothing is written), then runs `use` with it. An uploaded backup is held to the import
   * maximum and the expansion caps; the server's own snapshots are not, so a large knowledge base always restores.
   */
  async function withCheckedBackup<T>(
    zipPath: string,
    use: (checked: CheckedBackup, archive: Awaited<ReturnType<typeof openBackupArchive>>) => Promise<T>,
    uploaded = false,
  ) {
    const archive = await openBackupArchive(zipPath, { knownEntries, capExpansion: uploaded });
    try {
      if (uploaded) {
        const knowledgeBytes = (await stat(zipPath)).size - archive.fileBytes;
        if (knowledgeBytes > IMPORT_MAX_BYTES) {
          throw new AppError(
            "file_too_large",
            413,
            `${IMPORT_TOO_LARGE_TITLE}: the backup is ${megabytes(knowledgeBytes)} without its original files; the maximum is 100MB.`,
          );
        }
      }
      return await use(await checkBackup(archive, parts, createPacer()), archive);
    } finally {
      archive.close();
    }
  }

  /** Writes a checked backup over the user's knowledge and does what follows a restore. */
  async function apply(userId: number, checked: CheckedBackup, archive: Awaited<ReturnType<typeof openBackupArchive>>) {
    const owned = await ownConversations(userId, checked.conversationIds);
    const result = await restoreBackup(userId, archive, checked, owned, { knowledge, retrieval, parts, pace: createPacer() });
    const revectorize = !result.vectorsKept && retrieval.currentEmbedderId !== null && checked.manifest.counts.chunks > 0;
    await retrieval.afterRestore(userId, { revectorize });
    await knowledge.requeue(userId, result.requeue);
    await knowledge.sweepDeletedBlobs();
    return { revectorize };
  }

  /** Puts a snapshot back without taking another (the fallback after a failed or interrupted restore); false if it could not. */
  async function rollBack(userId: number, snapshot: KnowledgeSnapshotRow): Promise<boolean> {
    try {
      await withCheckedBackup(snapshots.pathOf(snapshot.fileName), (checked, archive) => apply(userId, checked, archive));
      return true;
    } catch (error) {
      deps.warn(`could not restore knowledge snapshot ${snapshot.id} of user ${userId}; it is still listed in Settings`, error);
      return false;
    }
  }

  /**
   * Replaces the user's knowledge with the backup at `zipPath`: checked in full first (a bad backup changes
   * nothing), then a snapshot of what is there, then the restore, which the snapshot undoes if it fails part-way.
   */
  async function replaceWith(userId: number, zipPath: string, reason: "import" | "restore", uploaded: boolean) {
    return withCheckedBackup(
      zipPath,
      async (checked, archive) => {
        if (!(await repo.startRestore(userId))) throw new AppError("restore_running", 409, RESTORE_RUNNING_MESSAGE);
        let snapshotId: number | undefined;
        try {
          snapshotId = await snapshots.take(userId, reason);
          await repo.setRestoreSnapshot(userId, snapshotId);
          const { revectorize } = await apply(userId, checked, archive);
          const { files, links, notes } = checked.summary;
          return { imported: files + links + notes, revectorize, hadVectors: checked.manifest.counts.vectors > 0, snapshotId };
        } catch (error) {
          const snapshot = snapshotId === undefined ? undefined : await snapshots.getById(snapshotId);
          // No snapshot: nothing had been changed yet.
          if (!snapshot) throw error;
          deps.warn(`replacing user ${userId}'s knowledge (${reason}) stopped part-way; restoring the snapshot taken before it`, error);
          throw stoppedPartWay(reason, await rollBack(userId, snapshot), snapshot);
        } finally {
          await repo.finishRestore(userId);
          await snapshots.prune(userId).catch((error: unknown) => deps.warn("could not remove old knowledge snapshots", error));
        }
      },
      uploaded,
    );
  }

  return {
    export: (userId: number) => exportBackup(userId, ports).stream,

    async preview(userId: number) {
      const summary = await knowledge.summary(userId);
      return { ...summary, message: replacesMessage(summary) };
    },

    /** Spools the uploaded zip to a temporary file (a zip is read from its end), then replaces the knowledge with it. */
    async importZip(userId: number, source: Readable, isTruncated: () => boolean, onTooLarge: () => Error) {
      await mkdir(deps.tempDir, { recursive: true });
      const zipPath = path.join(deps.tempDir, `import-${userId}-${Date.now()}-${Math.random().toString(36).slice(2)}.zip`);
      try {
        await pipeline(source, createWriteStream(zipPath));
        if (isTruncated()) throw onTooLarge();
        const result = await replaceWith(userId, zipPath, "import", true);
        let message = `Imported ${countOf(result.imported, "file")} from the backup.`;
        if (result.revectorize) {
          message += result.hadVectors
            ? ` Its vectors came from another embedding model, so they are being re-embedded with ${retrieval.currentEmbedderId}.`
            : ` It held no vectors, so its texts are being embedded with ${retrieval.currentEmbedderId}.`;
        }
        message += " What it replaced is kept as a snapshot in Settings.";
        return { message, files_imported: result.imported, snapshot_id: result.snapshotId };
      } finally {
        await rm(zipPath, { force: true });
      }
    },

    listSnapshots: (userId: number) => snapshots.list(userId),

    async restoreSnapshot(userId: number, id: number) {
      const snapshot = await snapshots.get(userId, id);
      if (!snapshot) throw notFound("Snapshot not found");
      const result = await replaceWith(userId, snapshots.pathOf(snapshot.fileName), "restore", false);
      return {
        message: `Restored ${countOf(result.imported, "file")} from the snapshot of ${snapshot.createdAt}. What it replaced is kept as a snapshot too.`,
        files_imported: result.imported,
        snapshot_id: result.snapshotId,
      };
    },

    async snapshotFile(userId: number, id: number) {
      const snapshot = await snapshots.get(userId, id);
      if (!snapshot) throw notFound("Snapshot not found");
      return { path: snapshots.pathOf(snapshot.fileName), createdAt: snapshot.createdAt };
    },

    /** Before a reset of the user's vectors: refused while a restore runs, else a snapshot is taken. */
    async beforeReset(userId: number) {
      if (await repo.isRestoring(userId)) throw new AppError("restore_running", 409, RESTORE_RUNNING_MESSAGE);
      await snapshots.take(userId, "reset");
      await snapshots.prune(userId);
    },

    /** A restore the process died in is undone from the snapshot taken before it (at start-up). */
    async recoverInterrupted() {
      for (const interrupted of await repo.interruptedRestores()) {
        const snapshot = interrupted.snapshotId === null ? undefined : await snapshots.getById(interrupted.snapshotId);
        if (snapshot) {
          deps.warn(`an import into user ${interrupted.userId}'s knowledge was interrupted; restoring the snapshot taken before it`);
          await rollBack(interrupted.userId, snapshot);
        }
        await repo.finishRestore(interrupted.userId);
      }
      await snapshots.removeStrays();
    },

    /** An import killed mid-way leaves its uploaded zip behind; nothing resumes imports, so they go at start-up. */
    async clearStaleImports() {
      const stale = await readdir(deps.tempDir).catch(() => [] as string[]);
      await Promise.all(stale.filter((name) => /^import-.*\.zip$/.test(name)).map((name) => rm(path.join(deps.tempDir, name), { force: true })));
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
