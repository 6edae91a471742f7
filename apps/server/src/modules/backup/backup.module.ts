import path from "node:path";
import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import type { ConversationsPort } from "../conversations/conversations.module.ts";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { MemoryBackupPort } from "../memory/memory.module.ts";
import type { RetrievalBackupPort } from "../retrieval/retrieval.module.ts";
import { registerBackupRoutes } from "./backup.routes.ts";
import { createBackupService } from "./backup.service.ts";

/** The knowledge base backup (the web app's Export / Import Vector DB): it spans the knowledge and retrieval modules. */
export function createBackupModule(deps: {
  store: Pick<Store, "transaction" | "dataDir">;
  knowledge: KnowledgeBackupPort;
  retrieval: RetrievalBackupPort;
  memory: MemoryBackupPort;
  conversations: Pick<ConversationsPort, "ownsConversation">;
}): AppModule {
  const backup = createBackupService({ ...deps, tempDir: path.join(deps.store.dataDir, "tmp") });
  return {
    async register(app) {
      await backup.clearStaleImports();
      registerBackupRoutes(app, { backup });
    },
  };
}
