import path from "node:path";
import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { RetrievalBackupPort } from "../retrieval/retrieval.module.ts";
import type { BackupPart } from "./backup-part.ts";
import { createBackupRepo } from "./backup.repo.ts";
import { registerBackupRoutes } from "./backup.routes.ts";
import { createBackupService } from "./backup.service.ts";

export type { BackupPart } from "./backup-part.ts";

export interface BackupModule extends AppModule {
  /** Settles once a restore that a crash interrupted has been undone (start-up; tests wait for it). */
  recovered(): Promise<void>;
}

/**
 * The knowledge base backup (the web app's Export / Import Vector DB) and the automatic snapshots taken before
 * every import, reset and snapshot restore. It spans the knowledge and retrieval modules; other modules' data
 * (memories, later) joins the backup as a `BackupPart`.
 */
export function createBackupModule(deps: {
  store: Pick<Store, "db" | "dataDir">;
  /** Where snapshots are kept (default <data>/snapshots): a folder every process reads, when several share a database. */
  snapshotsDir?: string;
  knowledge: KnowledgeBackupPort;
  retrieval: RetrievalBackupPort;
  parts?: BackupPart[];
  conversations: Pick<ConversationsPort, "ownsConversation">;
  warn(message: string, error?: unknown): void;
}): BackupModule {
  const backup = createBackupService({
    repo: createBackupRepo(deps.store.db),
    knowledge: deps.knowledge,
    retrieval: deps.retrieval,
    parts: deps.parts ?? [],
    conversations: deps.conversations,
    tempDir: path.join(deps.store.dataDir, "tmp"),
    snapshotsDir: deps.snapshotsDir ?? path.join(deps.store.dataDir, "snapshots"),
    warn: deps.warn,
  });
  deps.retrieval.onBeforeReset((userId) => backup.beforeReset(userId));
  let recovery: Promise<void> = Promise.resolve();
  return {
    recovered: () => recovery,
    async register(app) {
      await backup.clearStaleImports();
      // In the background: undoing an interrupted import of a large knowledge base may take a while.
      app.addHook("onReady", async () => {
        recovery = backup.recoverInterrupted().catch((error: unknown) => deps.warn("could not undo an interrupted import", error));
      });
      registerBackupRoutes(app, { backup });
    },
  };
}
