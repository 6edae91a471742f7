import type { AppModule } from "../../http/app-module.ts";
import type { AssistantTool } from "../assistant/assistant.module.ts";
import type { ConversationReaderPort } from "../conversations/conversations.module.ts";
import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { GeneratedFilesPort } from "../knowledge/knowledge.module.ts";
import { createDocumentTool } from "./create-document-tool.ts";
import { registerConversationExportRoutes } from "./conversation-export.routes.ts";
import { createDocumentDrafts } from "./document-drafts.ts";
import { registerDocumentDraftRoutes } from "./document-drafts.routes.ts";
import { readDocumentDraftTool, reviseDocumentTool } from "./revise-document-tool.ts";

/**
 * Documents out (decisions 042 and 047): the createDocument tool the assistant offers, the drafts behind its files
 * (the canvas: edited by the user, revised by the model, exported again), and a conversation's export
 * (GET /api/conversations/{id}/export), all written by the same writers.
 */
export function createDocumentsOutModule(deps: {
  db: Kysely<Database>;
  files: GeneratedFilesPort;
  conversations: ConversationReaderPort;
  /** The user's time zone, for the times an export writes. */
  timeZone(userId: number): Promise<string>;
  now?: () => Date;
}): AppModule & { tools: AssistantTool[] } {
  const drafts = createDocumentDrafts({ db: deps.db, files: deps.files, now: deps.now });
  return {
    tools: [createDocumentTool(drafts), reviseDocumentTool(drafts), readDocumentDraftTool(drafts)],
    register(app) {
      registerConversationExportRoutes(app, { conversations: deps.conversations, timeZone: deps.timeZone });
      registerDocumentDraftRoutes(app, { drafts });
    },
  };
}
