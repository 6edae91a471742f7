import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { countOf } from "@sage/contracts/text";
import type { Store } from "../../store/open-store.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { RetrievalBackupPort } from "../retrieval/retrieval.module.ts";
import { exportBackup } from "./export-backup.ts";
import { readBackup, type ParsedBackup } from "./read-backup.ts";

/** Export and import of a user's knowledge base (items, chunks, vectors) as one zip. */
export function createBackupService(deps: {
  store: Pick<Store, "transaction">;
  knowledge: KnowledgeBackupPort;
  retrieval: RetrievalBackupPort;
  conversations: Pick<ConversationsPort, "ownsConversation">;
  tempDir: string;
}) {
  const { knowledge, retrieval } = deps;

  /** The user's own conversations among those the backup links items to (other links land in the system base). */
  async function ownConversations(userId: number, backup: ParsedBackup) {
    const ids = new Set(backup.items.flatMap((item) => (item.conversation_id === null ? [] : [item.conversation_id])));
    const owned = new Set<number>();
    for (const id of ids) if (await deps.conversations.ownsConversation(userId, id)) owned.add(id);
    return owned;
  }

  /**
   * Replaces the user's knowledge with the backup in one transaction (a failure changes nothing). Vectors are kept
   * only when they come from the current embedder; otherwise they are re-embedded in the background.
   */
  async function restore(userId: number, backup: ParsedBackup) {
    const conversationIds = await ownConversations(userId, backup);
    const chunkCounts = new Map<number, number>();
    for (const chunk of backup.chunks) chunkCounts.set(chunk.item_id, (chunkCounts.get(chunk.item_id) ?? 0) + 1);
    const embedder = backup.manifest.embedder;
    const vectorsKept = Boolean(embedder && embedder.id === retrieval.currentEmbedderId);
    deps.store.transaction(() => {
      const items = knowledge.replaceAllSync(userId, backup.items, chunkCounts, conversationIds);
      const chunks = retrieval.importChunksSync(userId, backup.chunks, items);
      if (vectorsKept) retrieval.importVectorsSync(userId, embedder!, backup.vectors, chunks);
      retrieval.rebuildLexicalIndexSync(userId);
    });
    const revectorize = !vectorsKept && retrieval.currentEmbedderId !== null && backup.chunks.length > 0;
    await retrieval.afterRestore(userId, { revectorize });
    await knowledge.sweepDeletedBlobs();
    const filesImported = backup.items.filter((item) => item.type !== "folder").length;
    let message = `Imported ${countOf(filesImported, "file")} from the backup.`;
    if (revectorize) {
      message += ` Their vectors came from ${embedder?.id ?? "no embedder"}, so they are being re-embedded with ${retrieval.currentEmbedderId}.`;
    }
    return { message, files_imported: filesImported };
  }

  return {
    export: (userId: number) => exportBackup(userId, { knowledge, retrieval }),

    /** Spools the uploaded zip to a temporary file (a zip is read from its end), then validates and restores it. */
    async importZip(userId: number, source: Readable, isTruncated: () => boolean, onTooLarge: () => Error) {
      await mkdir(deps.tempDir, { recursive: true });
      const zipPath = path.join(deps.tempDir, `import-${userId}-${Date.now()}-${Math.random().toString(36).slice(2)}.zip`);
      try {
        await pipeline(source, createWriteStream(zipPath));
        if (isTruncated()) throw onTooLarge();
        return await restore(userId, await readBackup(zipPath));
      } finally {
        await rm(zipPath, { force: true });
      }
    },

    /** An import killed mid-way leaves its uploaded zip behind; nothing resumes imports, so they go at start-up. */
    async clearStaleImports() {
      const stale = await readdir(deps.tempDir).catch(() => [] as string[]);
      await Promise.all(stale.filter((name) => /^import-.*\.zip$/.test(name)).map((name) => rm(path.join(deps.tempDir, name), { force: true })));
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
