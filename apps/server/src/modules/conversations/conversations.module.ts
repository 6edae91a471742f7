import type { Message } from "@sage/contracts/conversations";
import type { AppModule } from "../../http/app-module.ts";
import type { Store } from "../../store/open-store.ts";
import { createConversationsRepo, type NewMessage } from "./conversations.repo.ts";
import { registerConversationRoutes } from "./conversations.routes.ts";
import { createConversationsService, type ConversationDeletedListener } from "./conversations.service.ts";
import type { FoldText } from "./message-matcher.ts";

/** What other modules may ask of conversations: whose a conversation is, and when one is deleted. */
export interface ConversationsPort {
  ownsConversation(userId: number, conversationId: number): Promise<boolean>;
  onDeleted(listener: ConversationDeletedListener): void;
  onRestored(listener: ConversationDeletedListener): void;
}

export type { NewMessage } from "./conversations.repo.ts";

/** What the assistant needs to run a turn: the history, and saving what was said. */
export interface ConversationMessagesPort {
  /** The conversation's messages, oldest first; a 404 when the conversation is not the user's. */
  messages(userId: number, conversationId: number): Promise<Message[]>;
  /**
   * Saves messages in one transaction; answers the stored rows. On SQLite they are stored when this is called (a
   * stopped turn saves from an abort listener, before anything else reaches the conversation).
   */
  appendMessages(userId: number, conversationId: number, messages: readonly NewMessage[]): Promise<Message[]>;
  /** Where an edit or a regenerated answer branches off, and what the model reads before it (decision 045). */
  branchPoint?(
    userId: number,
    conversationId: number,
    messageId: number,
    kind: "edit" | "regenerate",
  ): Promise<{ parentId: number | null; history: Message[]; user?: Message }>;
  /** The model the user chose for the conversation, if any. */
  chosenModel?(userId: number, conversationId: number): Promise<string | undefined>;
}

/** A conversation and its messages, read whole (an export); a 404 when it is not the user's. */
export interface ConversationReaderPort {
  conversation(userId: number, conversationId: number): Promise<{ id: number; name: string; createdAt: string }>;
  messages(userId: number, conversationId: number): Promise<Message[]>;
}

/** Starts a conversation for work no one typed (a schedule's runs, decision 036). */
export interface ConversationStarterPort {
  create(userId: number, name: string): Promise<{ id: number }>;
  /** A run wrote into the conversation while no one watched: unread until opened. */
  markUnread(userId: number, conversationId: number, at: string): Promise<void>;
}

export interface ConversationsModule extends AppModule {
  port: ConversationsPort;
  messages: ConversationMessagesPort;
  reader: ConversationReaderPort;
  starter: ConversationStarterPort;
}

// How often the purge of conversations deleted more than 30 days ago runs (it also runs at start-up).
const PURGE_INTERVAL_MS = 6 * 3_600_000;

export function createConversationsModule(deps: {
  /** SQLite's synchronous statements when the store has them (decision 058). */
  store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>;
  /** Other processes share the database: lists and messages are read from it, never kept in memory. */
  shared?: boolean;
  log: (error: unknown) => void;
  /** How message search folds text (knowledge search's folding, passed in by the app). */
  fold?: FoldText;
  /** German spelled without umlauts ("Rueckmeldung"), so either spelling finds the other (knowledge search's too). */
  germanSpelling?: (text: string) => string;
  /** Refuses a model the server does not allow (a conversation's chosen model). */
  checkModel?: (model: string) => void;
}): ConversationsModule {
  const service = createConversationsService({
    repo: createConversationsRepo(deps.store),
    shared: deps.shared,
    log: deps.log,
    fold: deps.fold,
    germanSpelling: deps.germanSpelling,
    checkModel: deps.checkModel,
  });
  const purge = () => service.purgeDeleted().catch((error: unknown) => deps.log(error));
  return {
    port: { ownsConversation: service.ownsConversation, onDeleted: service.onDeleted, onRestored: service.onRestored },
    messages: {
      messages: service.messages,
      appendMessages: service.appendMessages,
      branchPoint: service.branchPoint,
      chosenModel: async (userId, id) => (await service.get(userId, id)).model,
    },
    reader: { conversation: service.get, messages: service.messages },
    starter: { create: service.create, markUnread: service.markUnread },
    register: (app) => {
      registerConversationRoutes(app, { service });
      let timer: NodeJS.Timeout | undefined;
      app.addHook("onReady", async () => {
        await purge();
        timer = setInterval(() => void purge(), PURGE_INTERVAL_MS).unref();
      });
      app.addHook("onClose", async () => clearInterval(timer));
    },
  };
}
