import type { AppModule } from "../../http/app-module.ts";
import type { LlmProvider } from "../../providers/llm/llm.ts";
import type { WebSearchSetup } from "../../providers/web-search/create-web-search.ts";
import type { ConversationMessagesPort } from "../conversations/conversations.module.ts";
import type { CalendarPort, MailPort } from "../accounts/accounts.module.ts";
import type { MemoryPort } from "../memory/memory.module.ts";
import type { RemindersPort } from "../reminders/reminders.module.ts";
import type { DocumentSearchPort } from "../retrieval/retrieval.module.ts";
import type { AssistantTool } from "./tools/assistant-tool.ts";
import type { ApprovalPort } from "./turn-approval.ts";
import { registerAssistantRoutes } from "./assistant.routes.ts";
import { createAssistantService } from "./assistant.service.ts";
import { registerChatTurnRoutes } from "./chat-turn.routes.ts";
import { createChatTurnService, type TurnResourcesPort } from "./chat-turn.service.ts";
import { createReminderTool } from "./tools/create-reminder-tool.ts";
import { readThreadTool } from "./tools/read-thread-tool.ts";
import { searchMailTool } from "./tools/search-mail-tool.ts";
import { sendEmailTool } from "./tools/send-email-tool.ts";
import { draftEmailTool } from "./tools/draft-email-tool.ts";
import { archiveMailTool, deleteMailTool } from "./tools/move-mail-tools.ts";
import { saveMemoryTool } from "./tools/save-memory-tool.ts";
import { searchDocumentsTool } from "./tools/search-documents-tool.ts";
import { createGeminiCompatService } from "./gemini-compat/gemini-compat.service.ts";
import { registerGeminiCompatRoutes } from "./gemini-compat/gemini-compat.routes.ts";
import { createToolRegistry } from "./tools/tool-registry.ts";
import { createEventTool, updateEventTool } from "./tools/create-event-tool.ts";
import { cancelEventTool } from "./tools/cancel-event-tool.ts";
import { findFreeTimeTool } from "./tools/find-free-time-tool.ts";
import { listEventsTool } from "./tools/list-events-tool.ts";
import { createUnattendedTurns, type UnattendedTurnPort } from "./unattended-turn.ts";
import { createConversationTurns, type ConversationTurnPort } from "./conversation-turn.ts";
import { webSearchTool } from "./tools/web-search-tool.ts";
import { knowledgeFileTools, type KnowledgeFilesPort } from "./tools/knowledge-file-tools.ts";
import { shareFileTool, type FileSharesPort } from "./tools/share-file-tool.ts";
import { deleteFileTool } from "./tools/delete-file-tool.ts";
import type { TurnAttachmentsPort, WebPagesPort } from "../knowledge/knowledge.module.ts";
import { researchTool, type ResearchLimits } from "./research/research-tool.ts";

export type { AssistantTool, ToolContext } from "./tools/assistant-tool.ts";
export type { TurnResource, TurnResourcesPort } from "./chat-turn.service.ts";
export { UNATTENDED_REASON, type ApprovalPort } from "./turn-approval.ts";
export type { UnattendedOutcome, UnattendedTurnPort } from "./unattended-turn.ts";
export type { ConversationTurnPort } from "./conversation-turn.ts";

/** searchMail, readThread, draftEmail, and sendEmail, deleteMail and archiveMail (behind Approve), for users who connected a mail account. */
function mailTools(mail: MailPort): ToolSource {
  const tools = [searchMailTool(mail), readThreadTool(mail), draftEmailTool(mail), sendEmailTool(mail), deleteMailTool(mail), archiveMailTool(mail)];
  return async (userId) => ((await mail.hasMail(userId)) ? tools : []);
}

/** listEvents, findFreeTime (read-only), createEvent, updateEvent and cancelEvent (behind Approve), for users who connected a calendar. */
function calendarTools(calendar: CalendarPort): ToolSource {
  const tools = [listEventsTool(calendar), findFreeTimeTool(calendar), createEventTool(calendar), updateEventTool(calendar), cancelEventTool(calendar)];
  return async (userId) => ((await calendar.hasCalendar(userId)) ? tools : []);
}

/** Adds tools to a user's turns (the external tools module's toolsFor). */
export type ToolSource = (userId: number) => Promise<AssistantTool[]>;

/**
 * The assistant: whole chat turns run on the server (POST /api/conversations/{id}/turn), with tools that call
 * the other modules' ports; web search; the model settings; and, fenced in gemini-compat/, the spec's stateless
 * chat calls (/api/gemini/chat, /function-response) that other clients may use.
 */
export function createAssistantModule(deps: {
  llm: LlmProvider | null;
  webSearch: WebSearchSetup;
  conversations: ConversationMessagesPort;
  search: DocumentSearchPort;
  reminders: RemindersPort;
  memory: MemoryPort;
  /** Where a call waits for the user's answer (the external tools module's approvals). */
  approvals: ApprovalPort;
  /** The user's synced mail (searchMail, readThread, sendEmail); absent in setups without the accounts module. */
  mail?: MailPort;
  /** The user's synced calendars (listEvents, findFreeTime, createEvent, updateEvent). */
  calendar?: CalendarPort;
  /** Files attached to a message (the knowledge module's); without it a turn with attachments is refused. */
  attachments?: TurnAttachmentsPort;
  /** Tool servers' resources attached to a message (the external tools module's). */
  resources?: TurnResourcesPort;
  maxToolSteps: number;
  /** Web pages a research run reads (the knowledge module's safe reader); without it research reads none. */
  pages?: WebPagesPort;
  /** A research run's limits (decision 046). */
  research: ResearchLimits;
  /** Tools added per user for each turn (external MCP tools). */
  toolSources?: ToolSource[];
  /** Tools other modules offer every user (the schedules module's scheduleTask). */
  moreTools?: AssistantTool[];
  /** The knowledge base by folder and name (listFolder, readFile); absent: those tools are not offered. */
  files?: KnowledgeFilesPort;
  /** Files shared by link (shareFile); absent: the tool is not offered. */
  shares?: FileSharesPort;
  warn(message: string, error?: unknown): void;
}): AppModule & {
  turns: UnattendedTurnPort;
  conversationTurns: ConversationTurnPort;
  webSearch: ReturnType<typeof createAssistantService>["webSearch"];
} {
  const service = createAssistantService(deps);
  const tools = createToolRegistry(
    [
      createReminderTool(deps.reminders),
      searchDocumentsTool(deps.search),
      webSearchTool(service.webSearch),
      researchTool({ llm: deps.llm, webSearch: service.webSearch, search: deps.search, pages: deps.pages, limits: deps.research, log: deps.warn }),
      saveMemoryTool(deps.memory),
      ...(deps.files ? [...knowledgeFileTools(deps.files, deps.search), deleteFileTool(deps.files)] : []),
      ...(deps.shares ? [shareFileTool(deps.shares)] : []),
      ...(deps.moreTools ?? []),
    ],
    [...(deps.mail ? [mailTools(deps.mail)] : []), ...(deps.calendar ? [calendarTools(deps.calendar)] : []), ...(deps.toolSources ?? [])],
    deps.warn,
  );
  const chatTurns = createChatTurnService({
    llm: deps.llm,
    resolveModel: service.resolveModel,
    conversations: deps.conversations,
    search: deps.search,
    tools,
    approvals: deps.approvals,
    memory: deps.memory,
    ...(deps.mail ? { people: deps.mail.people, mailItems: deps.mail.mailItems } : {}),
    attachments: deps.attachments,
    resources: deps.resources,
    maxToolSteps: deps.maxToolSteps,
    log: deps.warn,
  });
  return {
    turns: createUnattendedTurns(chatTurns),
    /** Turns a channel runs for a message the user wrote there (the channels module). */
    conversationTurns: createConversationTurns(chatTurns),
    /** The web search the chat uses (the morning briefing's news). */
    webSearch: service.webSearch,
    register(app) {
      registerAssistantRoutes(app, { service });
      registerChatTurnRoutes(app, { chatTurns });
      registerGeminiCompatRoutes(app, { service: createGeminiCompatService({ llm: deps.llm, resolveModel: service.resolveModel }) });
    },
  };
}
