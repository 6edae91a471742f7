import { MEMORY_CONTENT_MAX, type Memory } from "@sage/contracts/memories";
import type { ContentSource } from "@sage/contracts/provenance";
import { z } from "zod";
import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import type { BackupPart } from "../backup/backup.module.ts";
import { createMemoryBackupRows, createMemoryRepo } from "./memory.repo.ts";
import { registerMemoryRoutes } from "./memory.routes.ts";
import type { SemanticPort } from "../retrieval/retrieval.module.ts";
import { createMemoryService } from "./memory.service.ts";

/** What the assistant needs: saving a memory from a turn, and what a turn is given. */
export interface MemoryPort {
  /**
   * Saves a memory the assistant heard (a 400 AppError for a secret or a full list); `created` is false when the
   * user already had that fact, which is then answered instead of a second copy.
   */
  /** `derivedFrom`: the mail or document its words came from, when the user kept it from a red card (issue 47). */
  save(userId: number, content: string, conversationId: number, derivedFrom?: ContentSource): Promise<{ memory: Memory; created: boolean }>;
  /** Whether memory is on for the user, and the memories that fit the turn's budget, most relevant to `message`. */
  forTurn(userId: number, message: string): Promise<{ enabled: boolean; memories: Memory[] }>;
}

/** A memory as a backup carries it (its id is the exporting store's; conversation links are not carried). */
const memoryBackupRowSchema = z.object({
  id: z.number().int().positive(),
  content: z.string().min(1).max(MEMORY_CONTENT_MAX),
  source: z.enum(["user", "assistant"]),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Kept from a mail's or document's words (issue 47): its source in words; absent in older backups. */
  derivedFrom: z.object({ title: z.string().min(1).max(500) }).optional(),
});
type MemoryBackupRow = z.infer<typeof memoryBackupRowSchema>;

export interface MemoryModule extends AppModule {
  port: MemoryPort;
  /** The user's memories in backups: `memories.jsonl`. */
  backup: BackupPart<MemoryBackupRow>;
}

export function createMemoryModule(deps: {
  store: Pick<Store, "db">;
  /** Retrieval's vector half, so memories over the budget are chosen by the same hybrid as search. */
  semantic?: SemanticPort | null;
  warn?: (message: string, error: unknown) => void;
}): MemoryModule {
  const repo = createMemoryRepo(deps.store.db);
  const backupRows = createMemoryBackupRows(deps.store.db);
  const service = createMemoryService({ repo, semantic: deps.semantic, warn: deps.warn });
  return {
    port: {
      save: (userId, content, conversationId, derivedFrom) =>
        service.create(userId, content, { source: "assistant", conversationId, ...(derivedFrom ? { derivedFrom } : {}) }),
      forTurn: service.forTurn,
    },
    backup: {
      name: "memories",
      schema: memoryBackupRowSchema,
      count: backupRows.count,
      exportPage: backupRows.exportPage,
      emptyStep: backupRows.deleteStep,
      insert: backupRows.insertRestored,
    },
    register: (app) => {
      registerMemoryRoutes(app, { service });
      // Memories saved before the secret check covered every language (or restored from an old backup) are
      // looked at once per start; a flagged one stays for the user to edit or delete, and no turn is given it.
      app.addHook("onReady", async () => {
        try {
          const flagged = await service.flagStoredSecrets();
          if (flagged > 0)
            deps.warn?.(`${flagged} stored memories look like secrets; they are flagged for their users and no longer given to the model`, undefined);
        } catch (error) {
          deps.warn?.("the start-up scan of memories for secrets failed", error);
        }
      });
    },
  };
}
