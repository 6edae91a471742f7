import type { Memory } from "@sage/contracts/memories";
import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import { createMemoryRepo } from "./memory.repo.ts";
import { registerMemoryRoutes } from "./memory.routes.ts";
import { createMemoryService } from "./memory.service.ts";

/** What the assistant needs: saving a memory from a turn, and what a turn is given. */
export interface MemoryPort {
  /** Saves a memory the assistant heard (a 400 AppError for a secret or a full list). */
  save(userId: number, content: string, conversationId: number): Promise<Memory>;
  /** Whether memory is on for the user, and the memories that fit the turn's budget, most relevant to `message`. */
  forTurn(userId: number, message: string): Promise<{ enabled: boolean; memories: Memory[] }>;
}

/** What the backup needs: the user's memories, and replacing them inside the restore's transaction. */
export interface MemoryBackupPort {
  list(userId: number): Promise<Memory[]>;
  replaceAllSync(userId: number, memories: readonly Pick<Memory, "content" | "source" | "createdAt" | "updatedAt">[]): void;
}

export interface MemoryModule extends AppModule {
  port: MemoryPort;
  backup: MemoryBackupPort;
}

export function createMemoryModule(deps: { store: Pick<Store, "db" | "prepare"> }): MemoryModule {
  const repo = createMemoryRepo(deps.store);
  const service = createMemoryService({ repo });
  return {
    port: {
      save: (userId, content, conversationId) => service.create(userId, content, { source: "assistant", conversationId }),
      forTurn: service.forTurn,
    },
    backup: { list: repo.list, replaceAllSync: repo.replaceAllSync },
    register: (app) => registerMemoryRoutes(app, { service }),
  };
}
