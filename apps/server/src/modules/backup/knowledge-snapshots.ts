import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { SnapshotReason } from "../../store/schema.ts";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { BackupRepo } from "./backup.repo.ts";
import { exportBackup, type ExportPorts } from "./export-backup.ts";

/** Snapshots kept per user; each is a complete backup, original files included, so they cost disk space. */
export const SNAPSHOTS_KEPT = 3;

/**
 * Automatic snapshots of a user's knowledge: a complete backup zip under <data>/snapshots, taken before every
 * import, reset and snapshot restore; the last few are kept and listed in Settings.
 */
export function createKnowledgeSnapshots(deps: { repo: BackupRepo; dir: string; ports: ExportPorts; knowledge: Pick<KnowledgeBackupPort, "summary"> }) {
  const { repo, dir } = deps;

  return {
    pathOf: (fileName: string) => path.join(dir, fileName),

    /** Writes the user's knowledge to a new snapshot; answers its id. */
    async take(userId: number, reason: SnapshotReason): Promise<number> {
      await mkdir(dir, { recursive: true });
      const fileName = `${userId}-${Date.now()}-${randomUUID().slice(0, 8)}.zip`;
      const temporary = path.join(dir, `.tmp-${fileName}`);
      const summary = await deps.knowledge.summary(userId);
      try {
        const { stream, finished } = exportBackup(userId, deps.ports);
        await pipeline(stream, createWriteStream(temporary));
        await finished;
        await rename(temporary, path.join(dir, fileName));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      const bytes = (await stat(path.join(dir, fileName))).size;
      const { files, links, notes, folders } = summary;
      return repo.insertSnapshot({ userId, reason, fileName, files, links, notes, folders, bytes });
    },

    list: (userId: number) => repo.listSnapshots(userId),

    get: (userId: number, id: number) => repo.getSnapshot(userId, id),

    getById: (id: number) => repo.getSnapshotById(id),

    /** Keeps the user's newest snapshots and deletes the rest. */
    async prune(userId: number, keep = SNAPSHOTS_KEPT) {
      const old = (await repo.listSnapshots(userId)).slice(keep);
      await repo.deleteSnapshots(old.map((snapshot) => snapshot.id));
      await Promise.all(old.map((snapshot) => rm(path.join(dir, snapshot.fileName), { force: true })));
    },

    /** Removes files no snapshot row names (a crash between writing a snapshot and recording it). */
    async removeStrays() {
      const names = await readdir(dir).catch(() => [] as string[]);
      const known = await repo.allSnapshotFiles();
      await Promise.all(names.filter((name) => !known.has(name)).map((name) => rm(path.join(dir, name), { force: true })));
    },
  };
}

export type KnowledgeSnapshots = ReturnType<typeof createKnowledgeSnapshots>;
