import type { AppModule } from "../../http/app-module.ts";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { ConversationReaderPort } from "../conversations/conversations.module.ts";
import type { GeneratedFilesPort } from "../knowledge/knowledge.module.ts";
import { createDocumentTool } from "./create-document-tool.ts";
import { registerConversationExportRoutes } from "./conversation-export.routes.ts";

/**
 * Documents out (decision 042): the createDocument tool the assistant offers, and a conversation's export
 * (GET /api/conversations/{id}/export), both written by the same writers.
 */
export function createDocumentsOutModule(deps: { files: GeneratedFilesPort; conversations: ConversationReaderPort }): AppModule & { tools: AssistantTool[] } {
  return {
    tools: [createDocumentTool(deps.files)],
    register(app) {
      registerConversationExportRoutes(app, { conversations: deps.conversations });
    },
  };
}
