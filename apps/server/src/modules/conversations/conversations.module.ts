import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import { createConversationsRepo } from "./conversations.repo.ts";
import { registerConversationRoutes } from "./conversations.routes.ts";
import { createConversationsService, type ConversationDeletedListener } from "./conversations.service.ts";

/** What other modules may ask of conversations: whose a conversation is, and when one is deleted. */
export interface ConversationsPort {
  ownsConversation(userId: number, conversationId: number): Promise<boolean>;
  onDeleted(listener: ConversationDeletedListener): void;
}

export interface ConversationsModule extends AppModule {
  port: ConversationsPort;
}

export function createConversationsModule(deps: { store: Pick<Store, "db" | "prepare" | "transaction">; log: (error: unknown) => void }): ConversationsModule {
  const service = createConversationsService({ repo: createConversationsRepo(deps.store), log: deps.log });
  return {
    port: { ownsConversation: service.ownsConversation, onDeleted: service.onDeleted },
    register: (app) => registerConversationRoutes(app, { service }),
  };
}
