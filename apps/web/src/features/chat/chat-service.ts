import {
  chatResponseSchema,
  functionResponseResponseSchema,
  streamErrorSchema,
  textDeltaSchema,
  webSearchResponseSchema,
  type ChatResponse,
  type FunctionCall,
  type WebSource,
} from "@sage/contracts/assistant";
import { messageListSchema, type Message } from "@sage/contracts/conversations";
import { searchResponseSchema } from "@sage/contracts/retrieval";
import { ApiError, apiRequest } from "@/lib/api-client";
import { postEventStream } from "@/lib/api-event-stream";
import { errorMessage } from "@/lib/error-message";
import { reminderCreatedEvent } from "@/lib/reminder-created-event";
import {
  CHAT_TEXTS,
  chatApiError,
  emptyFollowUp,
  followUpException,
  followUpFailed,
  foundDocuments,
  reminderFailed,
  searchException,
  searchHttpError,
  webSearchHttpError,
} from "./chat-texts";
import { SAGE_SYSTEM_INSTRUCTION, SAGE_TOOLS } from "./sage-assistant";

export interface ChatHistoryEntry {
  role: "user" | "model";
  content: string;
}

export interface ChatServiceDeps {
  /** The model to ask for; the server's default when undefined. */
  model?: () => string | undefined;
  notify?: (toast: { title: string; description: string; variant?: "destructive" }) => void;
  dispatchEvent?: (event: Event) => void;
  log?: Pick<Console, "warn" | "error">;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** The model messages of this turn so far (reply, then follow-up), as text streams in. */
  onProgress?: (modelTexts: string[]) => void;
}

/** The assistant's routes. Their paths keep the name of the first provider, but they serve every provider. */
const ASSISTANT_PATHS = {
  chat: "/api/gemini/chat",
  functionResponse: "/api/gemini/function-response",
  webSearch: "/api/gemini/web-search",
} as const;

/** A turn's reply: a follow-up answers only its text, a chat call adds the function calls. */
const turnReplySchema = functionResponseResponseSchema.extend({ functionCalls: chatResponseSchema.shape.functionCalls.default([]) });

/** What a function call hands back to the model; web search results also carry their sources for the links. */
type FunctionResult = Record<string, unknown> & { sources?: WebSource[] };

/** How much history a chat call carries: the server takes at most 500 messages and a bounded body. */
export const HISTORY_LIMIT = { messages: 100, characters: 200_000 };

/** The most recent history that fits the limits (the new message always goes). */
export function recentHistory(messages: ChatHistoryEntry[]): ChatHistoryEntry[] {
  const kept: ChatHistoryEntry[] = [];
  let characters = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    characters += message.content.length;
    if (kept.length > 0 && (kept.length >= HISTORY_LIMIT.messages || characters > HISTORY_LIMIT.characters)) break;
    kept.unshift(message);
  }
  return kept;
}

const isAbort = (error: unknown) => error instanceof Error && error.name === "AbortError";

/**
 * The chat turn, run in the browser: knowledge context is added to the message, the chat call streams the
 * reply, the first function call is run here (reminders, document search, web search), its result goes back
 * for a follow-up, and every message is saved, with fallbacks so a failure never loses the user's words.
 */
export function createChatService(deps: ChatServiceDeps = {}) {
  const log = deps.log ?? console;
  let history: ChatHistoryEntry[] = [];

  /** Posts a streamed turn; on stop it answers the text received so far. A failed reply throws ApiError. */
  async function postTurn(path: string, body: object, onText: (text: string) => void, signal?: AbortSignal): Promise<ChatResponse> {
    let text = "";
    try {
      const reply = await postEventStream(path, { ...body, stream: true }, signal);
      if ("json" in reply) return turnReplySchema.parse(reply.json);
      for await (const { event, data } of reply.events) {
        if (event === "text-delta") {
          text += textDeltaSchema.parse(data).delta;
          onText(text);
        } else if (event === "finish") {
          return turnReplySchema.parse(data);
        } else if (event === "error") {
          const failure = streamErrorSchema.parse(data);
          throw new ApiError(failure.status, failure.statusText, failure.error);
        }
      }
      if (signal?.aborted) return { response: text, functionCalls: [] };
      throw new Error("The reply ended before it was complete");
    } catch (error) {
      if (signal?.aborted || isAbort(error)) return { response: text, functionCalls: [] };
      throw error;
    }
  }

  const searchKnowledge = (query: string, limit: number, conversationId: string) =>
    apiRequest("/api/search", { method: "POST", body: { query, limit, ...numericConversation(conversationId) }, schema: searchResponseSchema });

  async function fetchContext(query: string, conversationId: string): Promise<string> {
    try {
      const results = await searchKnowledge(query, 3, conversationId);
      if (results.length === 0) return "";
      const snippets = results.slice(0, 3).map((result, index) => `[${index + 1}] Source: ${result.metadata.filename || CHAT_TEXTS.defaultSource}\n${result.content}`);
      return `\n\nRelevant information from the knowledge base:\n${snippets.join("\n\n")}`;
    } catch {
      return "";
    }
  }

  async function createReminder(args: Record<string, unknown>, conversationId: string): Promise<FunctionResult> {
    const id = String(conversationId ?? "").trim();
    if (!/^\d+$/.test(id)) throw new Error(CHAT_TEXTS.invalidConversationId);
    const body = {
      title: args.title,
      description: typeof args.description === "string" ? args.description : "",
      dueDate: args.dueDate,
      priority: args.priority ?? "medium",
      type: "reminder",
      status: "unread",
      conversationId: Number(id),
    };
    let reply: unknown;
    try {
      reply = await apiRequest("/api/reminders", { method: "POST", body });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const detail = errorMessage(error, { fallback: "", orElse: "bodyText" });
      throw new Error(reminderFailed(error.status, error.statusText, detail), { cause: error });
    }
    // The reminder goes to the model and the event as the server wrote it; a reply that is not JSON becomes a message.
    const reminder = typeof reply === "string" || reply === undefined ? { message: reply ?? "" } : reply;
    deps.dispatchEvent?.(reminderCreatedEvent(reminder));
    deps.notify?.({ title: CHAT_TEXTS.reminderToastTitle, description: CHAT_TEXTS.reminderToastDescription });
    return { success: true, reminder };
  }

  async function searchDocuments(args: Record<string, unknown>, conversationId: string): Promise<FunctionResult> {
    const query = typeof args.query === "string" ? args.query.trim() : "";
    if (!query) return { results: [], message: CHAT_TEXTS.noSearchQuery };
    try {
      const results = await searchKnowledge(query, 5, conversationId);
      if (results.length === 0) return { results: [], message: CHAT_TEXTS.noDocuments };
      return { results, message: foundDocuments(results.length) };
    } catch (error) {
      if (error instanceof ApiError) return { results: [], message: searchHttpError(error.status, error.statusText) };
      return { results: [], message: error instanceof Error ? searchException(error.message) : CHAT_TEXTS.unknownError };
    }
  }

  async function performWebSearch(args: Record<string, unknown>): Promise<FunctionResult> {
    const query = typeof args.query === "string" ? args.query.trim() : "";
    if (!query) return { success: false, message: CHAT_TEXTS.noSearchQuery };
    try {
      const data = await apiRequest(ASSISTANT_PATHS.webSearch, { method: "POST", body: { query }, schema: webSearchResponseSchema });
      return { success: true, message: CHAT_TEXTS.webSearchDone, response: data.response, groundingData: data.groundingData, sources: data.sources };
    } catch (error) {
      if (error instanceof ApiError) return { success: false, message: webSearchHttpError(error.status, error.statusText) };
      return { success: false, message: errorMessage(error, { fallback: CHAT_TEXTS.unknownError }) };
    }
  }

  /** Runs one function call; a failure becomes the result the model sees (and a toast for the user). */
  async function executeFunction(call: FunctionCall, conversationId: string): Promise<FunctionResult> {
    try {
      if (call.name === "createReminder") return await createReminder({ ...call.args, conversationId }, conversationId);
      if (call.name === "searchDocuments") return await searchDocuments(call.args, conversationId);
      if (call.name === "performWebSearch") return await performWebSearch(call.args);
      return { success: false, error: `Unknown function: ${call.name}` };
    } catch (error) {
      const message = errorMessage(error, { fallback: CHAT_TEXTS.unknownError });
      log.error(`Function ${call.name} failed:`, error);
      deps.notify?.({ title: "Error", description: message, variant: "destructive" });
      return { success: false, error: message };
    }
  }

  const saveMessage = (conversationId: string, role: "user" | "model", content: string): Promise<Message[]> =>
    apiRequest(`/api/conversations/${encodeURIComponent(conversationId)}/messages`, { method: "POST", body: { role, content }, schema: messageListSchema });

  const turnBody = () => ({ model: deps.model?.(), systemInstruction: SAGE_SYSTEM_INSTRUCTION, tools: SAGE_TOOLS });

  const service = {
    /** Replaces the history with the conversation's saved messages. */
    initializeChat(messages: ChatHistoryEntry[]) {
      history = messages.map((message) => ({ role: message.role, content: message.content }));
    },

    getHistory: (): ChatHistoryEntry[] => history.map((entry) => ({ ...entry })),

    /** Steps 1-5: answers the model messages to show; throws 'Gemini API error: ...' when the chat call fails. */
    async sendMessage(conversationId: string, content: string, options: SendOptions = {}): Promise<string[]> {
      const { signal, onProgress } = options;
      const context = await fetchContext(content, conversationId);
      const userEntry: ChatHistoryEntry = { role: "user", content: content + context };
      const messages = recentHistory([...history, userEntry]);
      let reply: ChatResponse;
      try {
        reply = await postTurn(ASSISTANT_PATHS.chat, { messages, ...turnBody() }, (text) => onProgress?.([text]), signal);
      } catch (error) {
        if (error instanceof ApiError) throw new Error(chatApiError(error.status, error.statusText), { cause: error });
        throw error;
      }
      history = [...history, userEntry];

      const call = signal?.aborted ? undefined : reply.functionCalls[0];
      let texts: string[];
      if (!call) {
        texts = [reply.response || CHAT_TEXTS.noResponse];
      } else {
        const result = await executeFunction(call, conversationId);
        let replyText = reply.response;
        let followUp = "";
        try {
          const follow = await postTurn(
            ASSISTANT_PATHS.functionResponse,
            { messages, functionResponse: { name: call.name, args: call.args, response: result }, ...turnBody() },
            (text) => onProgress?.([replyText, text]),
            signal,
          );
          followUp = follow.response || (signal?.aborted ? "" : emptyFollowUp(call.name));
        } catch (error) {
          const fallback = error instanceof ApiError ? followUpFailed(call.name) : followUpException(call.name);
          replyText = replyText ? `${replyText}\n\n${fallback}` : fallback;
        }
        const sources = result.sources ?? [];
        if (followUp && sources.length) followUp += `\n\n**Sources:**\n${sources.map((source) => `- [${source.title}](${source.url})`).join("\n")}`;
        texts = [replyText, followUp].filter((text) => text.trim() !== "");
        if (texts.length === 0) texts = [CHAT_TEXTS.noResponse];
      }
      history = [...history, ...texts.map((text) => ({ role: "model" as const, content: text }))];
      onProgress?.(texts);
      return texts;
    },

    /** Step 6: sends and saves; answers the conversation's messages after the last successful save, [] on total failure. */
    async sendMessageAndSave(conversationId: string, content: string, options: SendOptions = {}): Promise<Message[]> {
      try {
        let latest: Message[] = [];
        try {
          latest = await saveMessage(conversationId, "user", content);
        } catch (error) {
          log.warn("Could not save the user message; continuing:", error);
        }
        let texts: string[];
        try {
          texts = await service.sendMessage(conversationId, content, options);
        } catch (error) {
          log.error("Chat failed:", error);
          deps.notify?.({ title: "Error", description: errorMessage(error, { fallback: CHAT_TEXTS.unknownError }), variant: "destructive" });
          texts = [CHAT_TEXTS.sendFailed];
          history = [...history, { role: "user", content }, { role: "model", content: CHAT_TEXTS.sendFailed }];
          options.onProgress?.(texts);
        }
        let savedAny = false;
        for (const text of texts) {
          try {
            latest = await saveMessage(conversationId, "model", text);
            savedAny = true;
          } catch (error) {
            log.warn("Could not save a model message; skipped:", error);
          }
        }
        if (!savedAny) latest = await saveMessage(conversationId, "model", CHAT_TEXTS.savedFallback);
        return latest;
      } catch (error) {
        log.error("Sending and saving failed:", error);
        return [];
      }
    },
  };
  return service;
}

export type ChatService = ReturnType<typeof createChatService>;

function numericConversation(conversationId: string): { conversationId?: number } {
  return /^\d+$/.test(String(conversationId)) ? { conversationId: Number(conversationId) } : {};
}
